import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { EXIT, runCli } from './main.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const LIBRARY = path.join(root, 'src', 'core', 'import', 'testdata', 'tau2-library');

function capture(argv: string[]) {
  let out = '';
  let err = '';
  const code = runCli(argv, '9.8.7', { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

/** The library fixture copied to a temporary folder, its db.json replaced by `toml` as db.toml. */
function libraryWithToml(toml: (json: Record<string, unknown>) => string): string {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'policylab-toml-')), 'library');
  cpSync(LIBRARY, dir, { recursive: true });
  const jsonPath = path.join(dir, 'data', 'db.json');
  const json = JSON.parse(readFileSync(jsonPath, 'utf8'), (_, v: unknown) =>
    v === null ? undefined : v,
  ) as Record<string, unknown>;
  rmSync(jsonPath);
  writeFileSync(path.join(dir, 'data', 'db.toml'), toml(json));
  return dir;
}

describe('policylab import tau2 with a db.toml', () => {
  it('reads the database from db.toml and writes a project that checks clean', () => {
    const source = libraryWithToml((json) => stringify(json));
    const out = path.join(path.dirname(source), 'out');
    const { code, out: text, err } = capture(['import', 'tau2', source, '--out', out]);
    expect(err).toBe('');
    expect(code).toBe(EXIT.ok);
    expect(text).toContain(
      '5 tools, 3 tables (books 2 rows, members 12 rows, loans 12 rows), 2 tasks.',
    );
    expect(text).not.toContain('db.toml');
    expect(capture(['check', out]).code).toBe(EXIT.ok);
  });

  it('says where a malformed db.toml breaks, by its path and line, and still writes the rest', () => {
    const source = libraryWithToml(() => '[books.B1]\nbook_id = "B1"\ncopies = \n');
    const out = path.join(path.dirname(source), 'out');
    const { code, out: text } = capture(['import', 'tau2', source, '--out', out]);
    expect(code).toBe(EXIT.ok);
    expect(text).toContain(
      `- db.toml: Not valid TOML at line 3, column 10 (invalid value); database.yaml is left empty. (${path.join(source, 'data', 'db.toml')}:3)`,
    );
    expect(text).toContain('0 tables');
  });
});
