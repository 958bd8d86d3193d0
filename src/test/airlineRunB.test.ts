import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../core/index.ts';
import { compareRuns, projectChanges, readLog, reportOf } from '../core/index.ts';
import { AIRLINE_RUN, AIRLINE_RUN_B, airlineFacts, airlineRunB } from './airlineRun.ts';

function read(path: string): SimEvent[] {
  const log = readLog(JSON.parse(readFileSync(path, 'utf8')));
  if (!log.ok) throw new Error(log.error);
  return log.events;
}

describe('the second airline run', () => {
  const a = read(AIRLINE_RUN.path);
  const b = read(AIRLINE_RUN_B.path);

  it('is the first run turned as airlineRunB says (run `npm run fixtures` when stale)', () => {
    expect(b).toEqual(airlineRunB(a));
  });

  it('flips exactly the dialogues AIRLINE_RUN_B names, against the first', () => {
    const facts = airlineFacts();
    const before = reportOf(a, facts);
    const after = reportOf(b, facts);
    expect(after.dialogues).toHaveLength(AIRLINE_RUN_B.totals.dialogues);
    const comparison = compareRuns(before, after);
    expect(comparison.broke.map((f) => f.after.dialogue)).toEqual(AIRLINE_RUN_B.broke);
    expect(comparison.fixed.map((f) => f.after.dialogue)).toEqual(AIRLINE_RUN_B.fixed);
    expect(comparison.erred.map((f) => f.after.dialogue)).toEqual(AIRLINE_RUN_B.erred);
    expect(comparison.sameProject).toBe(false);
    const totals = { passes: 0, fails: 0, errors: 0 };
    for (const d of after.dialogues)
      totals[d.verdict === 'pass' ? 'passes' : d.verdict === 'fail' ? 'fails' : 'errors']++;
    expect(totals).toEqual({
      passes: AIRLINE_RUN_B.totals.passes,
      fails: AIRLINE_RUN_B.totals.fails,
      errors: AIRLINE_RUN_B.totals.errors,
    });
  });

  it('judged a project whose agent.md has the one line AIRLINE_RUN_B names changed', () => {
    const changes = projectChanges(a, b);
    const { file, removed, added } = AIRLINE_RUN_B.changed;
    expect(changes.kind).toBe('changed');
    if (changes.kind !== 'changed') return;
    expect(changes.files.map((f) => [f.file, f.status, f.removed, f.added])).toEqual([
      [file, 'changed', 1, 1],
    ]);
    expect(
      changes.files[0]?.hunks.flatMap((h) => h.lines.filter((l) => l.kind !== 'same')),
    ).toEqual([
      { kind: 'removed', text: removed, before: 15 },
      { kind: 'added', text: added, after: 15 },
    ]);
  });
});
