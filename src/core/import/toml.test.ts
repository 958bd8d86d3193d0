import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { stringify } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from './domain.ts';
import { gatherDomain, findDomain } from './gather.ts';
import { importReportText, importDomain } from './importDomain.ts';
import { readTau2Domain } from './tau2.ts';
import { readTomlData } from './toml.ts';

const here = path.dirname(new URL(import.meta.url).pathname);
const read = (...parts: string[]) => readFileSync(path.join(here, 'testdata', ...parts), 'utf8');

/** The value with every null field and item left out: TOML has no null. */
function withoutNulls(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.filter((v) => v !== null).map(withoutNulls);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, withoutNulls(v)]),
    );
  return value;
}

/** The library fixture's files, its database given as db.toml (`toml`) in place of db.json. */
function libraryWithToml(toml?: string): Map<string, string> {
  const json = read('tau2-library', 'data', 'db.json');
  const parsed = JSON.parse(json) as JsonValue;
  const asToml = stringify(withoutNulls(parsed));
  return new Map([
    ['policy.md', read('tau2-library', 'data', 'policy.md')],
    ['tasks.json', read('tau2-library', 'data', 'tasks.json')],
    ['db.toml', toml ?? asToml],
    ['tools.py', read('tau2-library', 'src', 'tools.py')],
    ['data_model.py', read('tau2-library', 'src', 'data_model.py')],
  ]);
}

const BROKEN = `[books.B1]
book_id = "B1"
copies = 
`;

describe('readTomlData', () => {
  it('reads tables, nested values, and dates as their ISO text', () => {
    const toml = `[users.u1]
name = "Ada"
since = 2024-05-15T15:00:00-05:00
born = 1990-01-02
tags = ["a", "b"]
address = { city = "Oxbury", zip = "01234" }

[[orders]]
id = 1
total = 10.5
`;
    expect(readTomlData(toml, 'db.toml')).toEqual({
      data: {
        users: {
          u1: {
            name: 'Ada',
            since: '2024-05-15T15:00:00.000-05:00',
            born: '1990-01-02',
            tags: ['a', 'b'],
            address: { city: 'Oxbury', zip: '01234' },
          },
        },
        orders: [{ id: 1, total: 10.5 }],
      },
      notes: [],
    });
  });

  it('names the file, line and column of a malformed document, and reads nothing of it', () => {
    expect(readTomlData(BROKEN, 'db.toml')).toEqual({
      notes: [
        {
          item: 'db.toml',
          message:
            'Not valid TOML at line 3, column 10 (invalid value); database.yaml is left empty.',
          place: { file: 'db.toml', line: 3 },
        },
      ],
    });
  });

  it('loses no value silently: huge integers as text, inf and nan as null, each noted', () => {
    const { data, notes } = readTomlData(
      '[t.r]\nbig = 123456789012345678901\nf = inf\n',
      'db.toml',
    );
    expect(data).toEqual({ t: { r: { big: '123456789012345678901', f: null } } });
    expect(notes.map((n) => `${n.item}: ${n.message}`)).toEqual([
      'db.toml, t.r.big: The integer 123456789012345678901 is past what a number holds exactly; read as text.',
      'db.toml, t.r.f: Infinity has no JSON form; read as null.',
    ]);
  });

  it('keeps a key named __proto__ as data, never as the object’s prototype', () => {
    const { data } = readTomlData('[t."__proto__"]\nx = 1\n', 'db.toml');
    const t = (data as Record<string, Record<string, unknown>>).t ?? {};
    expect(Object.keys(t)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(t)).toBe(Object.prototype);
  });

  it('reads back what any database written as TOML holds (property)', () => {
    const key = fc.string({ minLength: 1, maxLength: 8 });
    const scalar = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.integer(),
      // -0 is written as 0 (as JSON writes it too), so it cannot read back as -0.
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (d === 0 ? 0 : d)),
      fc.boolean(),
    );
    const { value } = fc.letrec<{ value: JsonValue }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        scalar,
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(key, tie('value'), { maxKeys: 3 }),
      ),
    }));
    const db = fc.dictionary(key, fc.dictionary(key, fc.dictionary(key, value, { maxKeys: 4 })), {
      maxKeys: 3,
    });
    fc.assert(
      fc.property(db, (data) => {
        const back = readTomlData(stringify(data), 'db.toml');
        expect(back.notes).toEqual([]);
        expect(back.data).toEqual(data);
      }),
    );
  });
});

describe('a tau2 domain whose database is db.toml', () => {
  it('gives the same tables as the same database in db.json', () => {
    const jsonFiles = libraryWithToml();
    jsonFiles.delete('db.toml');
    jsonFiles.set('db.json', read('tau2-library', 'data', 'db.json'));
    const fromJson = readTau2Domain('library', jsonFiles);
    const fromToml = readTau2Domain('library', libraryWithToml());
    expect(fromToml.tables.map((t) => [t.name, t.key, t.rows.length])).toEqual(
      fromJson.tables.map((t) => [t.name, t.key, t.rows.length]),
    );
    expect(fromToml.tables.map((t) => t.rows)).toEqual(
      fromJson.tables.map((t) => t.rows.map((r) => withoutNulls(r))),
    );
    expect(fromToml.notes.filter((n) => n.item.startsWith('db.'))).toEqual([]);
  });

  it('reads db.json when both are there, and says db.toml was not read', () => {
    const files = libraryWithToml().set('db.json', read('tau2-library', 'data', 'db.json'));
    expect(readTau2Domain('library', files).notes).toContainEqual({
      item: 'db.toml',
      message: 'Not read: the domain has a db.json too, and that is the one read.',
    });
  });

  it('is found and gathered among a folder’s files, by the CLI and the page alike', () => {
    const paths = ['data/policy.md', 'data/db.toml', 'src/tools.py'];
    expect(findDomain(['lib/data/db.toml', 'lib/src/tools.py'])).toEqual({
      kind: 'tau2',
      root: 'lib',
    });
    const found = gatherDomain('tau2', {
      label: 'lib',
      name: 'lib',
      paths,
      read: (p) => `text of ${p}`,
    });
    expect('error' in found ? found.error : [...found.paths]).toEqual([
      ['policy.md', 'data/policy.md'],
      ['db.toml', 'data/db.toml'],
      ['tools.py', 'src/tools.py'],
    ]);
  });

  it('refuses a malformed db.toml in the import report, naming the file and line', () => {
    const files = libraryWithToml(BROKEN);
    const paths = new Map([...files.keys()].map((n) => [n, `data/${n}`]));
    const result = importDomain({ kind: 'tau2', name: 'library', files, paths }, 'library');
    expect(result.domain.tables).toEqual([]);
    expect(importReportText(result, 'into out/', paths)).toContain(
      '  - db.toml: Not valid TOML at line 3, column 10 (invalid value); database.yaml is left empty. (data/db.toml:3)',
    );
    expect(result.counts.error).toBe(0);
  });
});
