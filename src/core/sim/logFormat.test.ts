import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { simulateRefunds } from '../../test/refundDesk.ts';
import { LOG_VERSION } from './events.ts';
import { LOG_MIGRATIONS, readLog } from './logFormat.ts';
import { reportOf } from './report.ts';

/** A log saved by PolicyLab before logs had a version (format 1), kept as it was written. */
const V1_LOG = JSON.parse(
  readFileSync('src/core/sim/testdata/log-v1.json', 'utf8'),
) as readonly Record<string, unknown>[];

const NO_FACTS = new Map();

describe('reading a log', () => {
  it('reads a log of the current format as it is', async () => {
    const { events } = await simulateRefunds();
    const read = readLog(JSON.parse(JSON.stringify(events)));
    expect(read).toEqual({ ok: true, events, savedVersion: LOG_VERSION });
    expect(events[0]).toMatchObject({ type: 'run-started', version: LOG_VERSION });
  });

  it('migrates a version 1 log: its scenario fault becomes scenario-error, its report otherwise unchanged', () => {
    const read = readLog(V1_LOG);
    if (!read.ok) throw new Error(read.error);
    expect(read.savedVersion).toBe(1);
    expect(read.events[0]).toMatchObject({ version: LOG_VERSION, prompts: V1_LOG[0]?.prompts });
    const endings = read.events.flatMap((e) => (e.type === 'dialogue-ended' ? [e.reason] : []));
    expect(endings).toEqual([
      'user-done',
      'user-done',
      'user-done',
      'user-done',
      'scenario-error',
      'scenario-error',
      'provider-error',
      'provider-error',
    ]);
    const report = reportOf(read.events, NO_FACTS);
    expect(report.overall).toMatchObject({ passes: 2, fails: 2 });
    expect(report.errors.total).toBe(4);
    expect(report.usage.calls).toBe(22);
  });

  it('fills what version 1 logs written before prompts and timings left out', () => {
    const [first, ...rest] = V1_LOG;
    const older = [
      { ...first, prompts: undefined },
      ...rest.map((e) => (e.type === 'usage' ? { ...e, ms: undefined } : e)),
    ].map((e) => JSON.parse(JSON.stringify(e)) as unknown);
    const read = readLog(older);
    if (!read.ok) throw new Error(read.error);
    expect(read.events[0]).toMatchObject({ prompts: [] });
    expect(read.events.filter((e) => e.type === 'usage').every((e) => e.ms === 0)).toBe(true);
  });

  it('turns a version 1 model error that was the model’s into the agent’s failure', () => {
    const log = V1_LOG.map((e) =>
      e.type === 'dialogue-ended' && e.reason === 'provider-error'
        ? { ...e, reason: 'model-error', detail: 'The model answered badly twice.' }
        : e,
    );
    const read = readLog(log);
    if (!read.ok) throw new Error(read.error);
    const reasons = read.events.flatMap((e) => (e.type === 'dialogue-ended' ? [e.reason] : []));
    expect(reasons.filter((r) => r === 'agent-error')).toHaveLength(2);
    const report = reportOf(read.events, NO_FACTS);
    expect(report.overall).toMatchObject({ passes: 2, fails: 4 });
    expect(report.unattributed.filter((b) => b.source === 'ending')).toHaveLength(2);
  });

  it('reads a version 2 log: no seed rows or time were recorded, and its report is unchanged', async () => {
    const { events } = await simulateRefunds();
    const v2 = events.map((e) => {
      if (e.type !== 'run-started') return e;
      const { now: _now, database: _database, ...older } = e;
      return { ...older, version: 2 };
    });
    const read = readLog(JSON.parse(JSON.stringify(v2)));
    if (!read.ok) throw new Error(read.error);
    expect(read.savedVersion).toBe(2);
    expect(read.events[0]).toMatchObject({ version: LOG_VERSION });
    expect(read.events[0]).not.toHaveProperty('database');
    expect(reportOf(read.events, NO_FACTS)).toEqual(reportOf(events, NO_FACTS));
  });

  it('reads a version 4 log (no call says who made it): every call stays the agent’s', async () => {
    const { events } = await simulateRefunds();
    const v4 = events.map((e) => (e.type === 'run-started' ? { ...e, version: 4 } : e));
    const read = readLog(JSON.parse(JSON.stringify(v4)));
    if (!read.ok) throw new Error(read.error);
    expect(read.savedVersion).toBe(4);
    expect(read.events[0]).toMatchObject({ version: 5 });
    expect(read.events.filter((e) => e.type === 'tool-call' && e.by !== undefined)).toEqual([]);
    expect(reportOf(read.events, NO_FACTS)).toEqual(reportOf(events, NO_FACTS));
  });

  it('records the seed rows and the time the run saw, and refuses a malformed mark or note', async () => {
    const { events } = await simulateRefunds();
    const started = events[0];
    if (started?.type !== 'run-started') throw new Error('no start');
    expect(started.now).toEqual(expect.any(String));
    expect(started.database?.tables.map((t) => t.name).length).toBeGreaterThan(0);
    const with_ = (event: Record<string, unknown>) => readLog([...events, event]);
    const base = { at: 1, dialogue: 'd' };
    expect(
      with_({ ...base, type: 'mark', target: { kind: 'judge', policy: 'p' }, correct: null }).ok,
    ).toBe(true);
    expect(with_({ ...base, type: 'note', turn: 2, text: 'look here' }).ok).toBe(true);
    const broken: [Record<string, unknown>, string][] = [
      [
        { ...base, type: 'mark', target: { kind: 'guess' }, correct: true },
        '"target.kind" must be one of "finding", "judge"',
      ],
      [
        { ...base, type: 'mark', target: { kind: 'finding' }, correct: true },
        '"target" lacks "id"',
      ],
      [
        { ...base, type: 'mark', target: { kind: 'judge', policy: 'p' }, correct: 'yes' },
        '"correct" must be true or false',
      ],
      [{ ...base, type: 'note', turn: 1.5, text: '' }, '"turn" must be a whole number'],
    ];
    for (const [event, said] of broken) {
      const read = with_(event);
      expect(read.ok ? '' : read.error).toContain(said);
    }
  });

  it('refuses a log from a newer PolicyLab, saying which format it is', () => {
    const [first, ...rest] = V1_LOG;
    expect(readLog([{ ...first, version: LOG_VERSION + 1 }, ...rest])).toEqual({
      ok: false,
      error: `This run was saved by a newer PolicyLab (log format ${LOG_VERSION + 1}; this one reads formats up to ${LOG_VERSION}). Open it in an up-to-date PolicyLab.`,
    });
  });

  it('names the first broken event and what is wrong with it', () => {
    const at = (i: number, patch: Record<string, unknown>) =>
      V1_LOG.map((e, j) => (j === i ? { ...e, ...patch } : e));
    const message = V1_LOG.findIndex((e) => e.type === 'message');
    const checks = V1_LOG.findIndex((e) => e.type === 'checks');
    const cases: [unknown, string][] = [
      [{ events: [] }, 'The run’s log is not a list of events.'],
      [[...V1_LOG, 'x'], `Event ${V1_LOG.length + 1} of the run’s log is not an event`],
      [V1_LOG.slice(1), 'does not begin with the run’s start'],
      [at(0, { version: 'two' }), 'a format version PolicyLab does not know: "two"'],
      [
        at(message, { turn: -1 }),
        `Event ${message + 1} (message) of the run’s log is broken: "turn" must be a whole number.`,
      ],
      [at(message, { speaker: 'judge' }), '"speaker" must be one of "user", "agent"'],
      [
        at(message, { type: 'shout' }),
        `Event ${message + 1} (shout) of the run’s log is broken: its type "shout" is not one PolicyLab writes.`,
      ],
      [at(message, { dialogue: undefined }), 'it lacks "dialogue"'],
      [
        at(checks, { findings: [{ id: 'x', passed: 'yes', detail: '' }] }),
        '"findings[0].passed" must be true or false',
      ],
    ];
    for (const [raw, said] of cases) {
      const read = readLog(raw);
      expect(read.ok, said).toBe(false);
      if (!read.ok) expect(read.error).toContain(said);
    }
  });

  it('never throws, whatever it is given', () => {
    const event = fc.oneof(
      fc.constantFrom(...V1_LOG),
      fc.dictionary(
        fc.constantFrom('type', 'at', 'dialogue', 'turn', 'version', 'reason'),
        fc.jsonValue(),
      ),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(fc.oneof(fc.array(event, { maxLength: 30 }), fc.jsonValue()), (raw) => {
        const read = readLog(raw);
        if (read.ok) expect(Array.isArray(read.events)).toBe(true);
        else expect(read.error.length).toBeGreaterThan(0);
      }),
    );
  });

  it('reads every prefix of a current log, as a run cut off at any moment leaves it', async () => {
    const { events } = await simulateRefunds();
    for (let n = 0; n <= events.length; n++) {
      const read = readLog(events.slice(0, n));
      expect(read.ok, `first ${n} events`).toBe(true);
    }
  });

  it('has one migration per version, each a step up', () => {
    expect(LOG_MIGRATIONS.map((m) => m.from)).toEqual(
      Array.from({ length: LOG_VERSION - 1 }, (_, i) => i + 1),
    );
    // A migrated log read again is the same log (its version is now the current one).
    const once = readLog(V1_LOG);
    const twice = once.ok ? readLog(once.events) : once;
    expect(twice).toEqual(once.ok ? { ...once, savedVersion: LOG_VERSION } : once);
  });
});
