import { cpuMs } from '../../test/bounded.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SimEvent } from '../sim/events.ts';
import type { RunReport } from '../sim/reportTypes.ts';
import { readLog } from '../sim/logFormat.ts';
import { reportOf } from '../sim/report.ts';
import {
  BIG_LOG_POLICIES,
  LONG_DIALOGUE,
  MANY_DIALOGUES,
  longDialogueLog,
  manyDialoguesLog,
} from './bigLogs.ts';

/** The log as `readLog` reads it, or its error thrown. */
function read(events: readonly SimEvent[]): SimEvent[] {
  const result = readLog(JSON.parse(JSON.stringify(events)));
  if (!result.ok) throw new Error(result.error);
  return result.events;
}

/** How many dialogues of the log say the rare word. */
function sayingWord(log: readonly SimEvent[]): number {
  const saying = log.flatMap((e) =>
    e.type === 'message' && e.text.includes(MANY_DIALOGUES.word) ? [e.dialogue] : [],
  );
  return new Set(saying).size;
}

describe('longDialogueLog', () => {
  let log: SimEvent[] = [];
  let report: RunReport;
  beforeAll(() => {
    log = read(longDialogueLog());
    report = reportOf(log, BIG_LOG_POLICIES);
  });
  const of = <T extends SimEvent['type']>(type: T) =>
    log.filter((e): e is Extract<SimEvent, { type: T }> => e.type === type);

  it('is one dialogue of 60 alternating messages, 30 tool calls and 400 starting rows', () => {
    expect(report.dialogues.map((d) => d.dialogue)).toEqual([LONG_DIALOGUE.dialogue]);
    const messages = of('message');
    expect(messages).toHaveLength(LONG_DIALOGUE.messages);
    expect(messages.map((m) => m.turn)).toEqual(messages.map((_, i) => i));
    expect(messages.every((m, i) => m.speaker === (i % 2 === 0 ? 'user' : 'agent'))).toBe(true);
    expect(of('tool-call')).toHaveLength(LONG_DIALOGUE.toolCalls);
    expect(of('guard')).toHaveLength(LONG_DIALOGUE.toolCalls);
    expect(of('tool-result')).toHaveLength(LONG_DIALOGUE.toolCalls);
    const [start] = of('run-started');
    const tables = start?.database?.tables ?? [];
    expect(tables.length).toBeGreaterThanOrEqual(3);
    expect(tables.reduce((n, t) => n + t.rows.length, 0)).toBe(LONG_DIALOGUE.startingRows);
  });

  it('mixes reads and writes, and a guard refuses the calls at the known turns', () => {
    const writes = of('tool-result').filter((r) => r.changes.length > 0);
    expect(writes.length).toBeGreaterThan(5);
    expect(writes.length).toBeLessThan(LONG_DIALOGUE.toolCalls - 5);
    const refused = of('guard').filter((g) => !g.allowed);
    const turnOf = (call: string) => of('tool-call').find((c) => c.call === call)?.turn;
    expect(refused.map((g) => turnOf(g.call))).toEqual(LONG_DIALOGUE.refusedTurns);
  });

  it('fails at the known turns, with the judge quoting the messages', () => {
    const [d] = report.dialogues;
    expect(d?.verdict).toBe('fail');
    expect(d?.ending).toBe(LONG_DIALOGUE.ending);
    const failedChecks = (d?.breaches ?? []).filter((b) => b.source === 'check');
    expect(failedChecks.map((b) => ({ id: b.id, policy: b.policy, turn: b.turn }))).toEqual(
      LONG_DIALOGUE.failedFindings,
    );
    const texts = of('message').map((m) => m.text);
    const judged = of('judge');
    expect(judged.length).toBeGreaterThan(0);
    for (const j of judged.filter((x) => x.evidence !== ''))
      expect(texts.some((t) => t.includes(j.evidence))).toBe(true);
    expect(judged.some((j) => j.violated)).toBe(true);
  });
});

describe('manyDialoguesLog', () => {
  it('reads back with as many dialogues as asked for, varied enough to filter', () => {
    const log = read(manyDialoguesLog());
    const report = reportOf(log, BIG_LOG_POLICIES);
    expect(report.dialogues).toHaveLength(5000);
    expect(report.scenarios).toHaveLength(MANY_DIALOGUES.scenarios);
    expect(new Set(report.dialogues.map((d) => d.trial)).size).toBeGreaterThan(1);
    const verdicts = new Set(report.dialogues.map((d) => d.verdict));
    expect([...verdicts].sort()).toEqual(['error', 'fail', 'pass', 'suspect']);
    expect(new Set(report.dialogues.map((d) => d.ending)).size).toBeGreaterThanOrEqual(5);
    expect(report.byPolicy.length).toBeGreaterThanOrEqual(10);
    expect(report.judgeOpinion.dialoguesJudged).toBeGreaterThan(0);
    expect(sayingWord(log)).toBe(MANY_DIALOGUES.withWord(5000));
  });

  it.each([1, 7, 8, 120])('makes exactly %i dialogues when asked', (count) => {
    const log = read(manyDialoguesLog(count));
    const report = reportOf(log, BIG_LOG_POLICIES);
    expect(report.dialogues).toHaveLength(count);
    expect(sayingWord(log)).toBe(MANY_DIALOGUES.withWord(count));
    expect(report.progress.dialoguesExpected).toBeGreaterThanOrEqual(count);
  });

  it('is the same every time, and 5,000 dialogues build in well under two seconds', () => {
    const { ms, value: log } = cpuMs(() => manyDialoguesLog());
    expect(ms).toBeLessThan(2000);
    expect(manyDialoguesLog()).toEqual(log);
    expect(longDialogueLog()).toEqual(longDialogueLog());
  });
});
