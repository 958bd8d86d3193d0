import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ImportNote } from './domain.ts';
import { gatherDomain } from './gather.ts';
import { importDomain, importReportText } from './importDomain.ts';
import { readIntellagentDomain } from './intellagent.ts';
import { readValidators } from './validators.ts';

/** A gym's validators, in IntellAgent's shape: decorated functions over a new table's rows. */
const GYM_VALIDATORS = `from simulator.utils.file_reading import validator


@validator(table='members')
def member_card_validator(new_df, dataset):
    """Every card starts with C-."""
    for index, row in new_df.iterrows():
        if not row['card'].startswith('C-'):
            raise ValueError('bad card')
    return new_df, dataset


@validator(table="bookings")
def booking_member_validator(new_df, dataset):
    for index, row in new_df.iterrows():
        if row['member'] not in dataset['members'].values:
            raise ValueError(f"Member {row['member']} is not a member of the gym.")
        if row['spots'] > 20:
            problem = f"Class {row['class_id']} has at most {{20}} spots."
            raise ValueError(problem)
    return new_df, dataset


@validator(table='bookings')
def booking_fill_validator(new_df, dataset):
    new_df['paid'] = False
    return new_df, dataset


def helper(row):
    raise ValueError('Not a validator at all.')
`;

const here = path.dirname(new URL(import.meta.url).pathname);
const GYM = path.join(here, 'testdata', 'intellagent-gym');

function gymFiles(): Map<string, string> {
  const files = new Map([['wiki.md', readFileSync(path.join(GYM, 'wiki.md'), 'utf8')]]);
  for (const folder of ['tools', 'data'])
    for (const f of readdirSync(path.join(GYM, folder)))
      files.set(`${folder}/${f}`, readFileSync(path.join(GYM, folder, f), 'utf8'));
  return files.set('validators/gym_validators.py', GYM_VALIDATORS);
}

describe('readValidators', () => {
  it('lists each @validator function by name and table, with what it checks in its words', () => {
    const notes: ImportNote[] = [];
    expect(readValidators('validators/v.py', GYM_VALIDATORS, notes)).toEqual([
      {
        name: 'member_card_validator',
        table: 'members',
        checks: 'Every card starts with C-.',
        place: { file: 'validators/v.py', line: 5 },
      },
      {
        name: 'booking_member_validator',
        table: 'bookings',
        checks:
          'It refuses rows with “Member … is not a member of the gym.”; “Class … has at most {20} spots.”',
        place: { file: 'validators/v.py', line: 14 },
      },
      {
        name: 'booking_fill_validator',
        table: 'bookings',
        place: { file: 'validators/v.py', line: 25 },
      },
    ]);
    expect(notes).toEqual([]);
  });

  it('leaves out a message that does not read as words', () => {
    const source = `@validator(table='t')
def v(new_df, dataset):
    if len(new_df) > 3:
        raise ValueError(messages[0])
    if len(new_df) > 9:
        raise ValueError("x")
    return new_df, dataset
`;
    expect(readValidators('validators/v.py', source, [])).toEqual([
      { name: 'v', table: 't', place: { file: 'validators/v.py', line: 2 } },
    ]);
  });

  it('never throws on mangled source, and never runs it (property)', () => {
    fc.assert(
      fc.property(fc.nat(GYM_VALIDATORS.length), fc.string({ maxLength: 20 }), (at, junk) => {
        const mangled = GYM_VALIDATORS.slice(0, at) + junk + GYM_VALIDATORS.slice(at);
        const notes: ImportNote[] = [];
        for (const v of readValidators('validators/v.py', mangled, notes)) {
          expect(v.name).toMatch(/^\w+$/);
          expect(v.checks === undefined || v.checks.length <= 200).toBe(true);
        }
      }),
    );
  });
});

describe('an IntellAgent input with validators', () => {
  it('is gathered with its validators/*.py', () => {
    const found = gatherDomain('intellagent', {
      label: 'gym',
      name: 'gym',
      paths: ['wiki.md', 'tools/a.py', 'validators/v.py', 'validators/notes.txt', 'other/x.py'],
      read: (p) => p,
    });
    expect('error' in found ? found.error : [...found.files.keys()]).toEqual([
      'wiki.md',
      'tools/a.py',
      'validators/v.py',
    ]);
  });

  it('reports each validator by name as not carried, and the project checks clean', () => {
    const files = gymFiles();
    const paths = new Map([...files.keys()].map((n) => [n, n]));
    const result = importDomain({ kind: 'intellagent', name: 'gym', files, paths }, 'gym');
    expect(result.domain.validators?.map((v) => v.name)).toEqual([
      'member_card_validator',
      'booking_member_validator',
      'booking_fill_validator',
    ]);
    const text = importReportText(result, 'into gym/', paths);
    expect(text).toContain(
      '    - validator member_card_validator (table members): A check IntellAgent runs on the rows it generates; not carried (validators/gym_validators.py:5). Every card starts with C-.\n',
    );
    expect(text).toContain(
      '    - validator booking_fill_validator (table bookings): A check IntellAgent runs on the rows it generates; not carried (validators/gym_validators.py:25).\n',
    );
    expect(result.counts.error).toBe(0);
  });

  it('has no validators when the input has none', () => {
    const files = gymFiles();
    files.delete('validators/gym_validators.py');
    expect(readIntellagentDomain('gym', files).validators).toBeUndefined();
  });

  const SHARED = path.resolve(here, '..', '..', '..', '..', 'shared', 'intellagent', 'retail');
  const shared = existsSync(path.join(SHARED, 'input', 'validators'));
  it.skipIf(!shared)(
    `lists every validator of IntellAgent's retail example${shared ? '' : ' (skipped: ../shared/intellagent/retail/input/validators is absent)'}`,
    () => {
      const dir = path.join(SHARED, 'input', 'validators');
      const files = new Map(
        readdirSync(dir)
          .filter((f) => f.endsWith('.py'))
          .map((f) => [`validators/${f}`, readFileSync(path.join(dir, f), 'utf8')] as const),
      );
      const domain = readIntellagentDomain('retail', files);
      const defs = [...files.values()].flatMap((source) =>
        [...source.matchAll(/@validator\([^)]*\)\s*\ndef (\w+)/g)].map((m) => m[1]),
      );
      expect(defs.length).toBeGreaterThan(0);
      expect(domain.validators?.map((v) => v.name)).toEqual(defs);
    },
  );
});
