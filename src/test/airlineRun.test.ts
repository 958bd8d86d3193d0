import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RowChange, RunReport, SimEvent } from '../core/index.ts';
import { LOG_VERSION, readLog, readerTurns, reportOf } from '../core/index.ts';
import type { KnownDialogue } from './airlineRun.ts';
import { AIRLINE_RUN, airlineFacts, recordAirlineRun } from './airlineRun.ts';

const STALE = `${AIRLINE_RUN.path} is not what the engine writes now: run \`npm run fixtures\` and commit it.`;

let recorded: SimEvent[];
let saved: unknown;
/** The saved log as read back: what the e2e tests open, so the answers are checked on it. */
let log: SimEvent[];
let report: RunReport;
beforeAll(async () => {
  recorded = await recordAirlineRun();
  saved = JSON.parse(readFileSync(AIRLINE_RUN.path, 'utf8'));
  const read = readLog(saved);
  if (!read.ok) throw new Error(read.error);
  log = read.events;
  report = reportOf(log, airlineFacts());
});

const known = Object.entries(AIRLINE_RUN.dialogues) as [string, KnownDialogue][];
const of = (id: string) => log.filter((e) => 'dialogue' in e && e.dialogue === id);
const dialogueReport = (id: string) => {
  const found = report.dialogues.find((d) => d.dialogue === id);
  if (!found) throw new Error(`The report has no dialogue ${id}.`);
  return found;
};

describe('the recorded airline run', () => {
  it('is the log the engine writes now, and reads back in the current format', () => {
    expect(recorded, STALE).toEqual(saved);
    const read = readLog(saved);
    expect(read.ok && read.savedVersion).toBe(LOG_VERSION);
    const [start] = log;
    expect(start?.type === 'run-started' && start).toMatchObject({
      seed: AIRLINE_RUN.seed,
      trials: AIRLINE_RUN.trials,
      now: AIRLINE_RUN.now,
      models: { agent: 'scripted-agent', user: 'scripted-user', judge: 'scripted-judge' },
    });
    expect(start?.type === 'run-started' && start.database?.tables.length).toBeGreaterThan(0);
  });

  it('records the same log twice (nothing in it varies between runs)', async () => {
    expect(await recordAirlineRun()).toEqual(recorded);
  });

  it('gives the known totals', () => {
    const count = (verdict: string) => report.dialogues.filter((d) => d.verdict === verdict).length;
    const { totals } = AIRLINE_RUN;
    expect(report.dialogues.map((d) => d.dialogue).sort()).toEqual(known.map(([id]) => id).sort());
    expect(report.dialogues).toHaveLength(totals.dialogues);
    expect({ passes: count('pass'), fails: count('fail'), errors: count('error') }).toEqual({
      passes: totals.passes,
      fails: totals.fails,
      errors: totals.errors,
    });
    expect(report.overall).toMatchObject({ passes: totals.passes, fails: totals.fails });
    expect(report.errors.total).toBe(totals.errors);
    expect(report.progress.ended).toBe('done');
  });

  it.each(known)('%s: verdict, ending, size and first breach as known', (id, want) => {
    const d = dialogueReport(id);
    expect({ verdict: d.verdict, ending: d.ending, role: d.endingRole }).toEqual({
      verdict: want.verdict,
      ending: want.ending,
      role: want.endingRole ?? null,
    });
    expect(of(id).filter((e) => e.type === 'message')).toHaveLength(want.messages);
    expect(of(id).filter((e) => e.type === 'tool-call')).toHaveLength(want.toolCalls);
    if (want.verdict === 'error') return;
    const [first] = d.breaches;
    expect(
      first && {
        turn: first.turn,
        label: first.turnLabel,
        source: first.source,
        id: first.id,
        policy: first.policy,
      },
    ).toEqual(want.firstBreach);
  });

  it.each(known)('%s: the guard refuses only the known call', (id, want) => {
    const refusals = of(id).flatMap((e) => (e.type === 'guard' && !e.allowed ? [e] : []));
    const seen = refusals.map((g) => {
      const call = of(id).find((e) => e.type === 'tool-call' && e.call === g.call);
      const turn = call?.type === 'tool-call' ? call.turn : -1;
      const label = readerTurns(of(id).flatMap((e) => (e.type === 'message' ? [e] : [])))(turn);
      const tool = call?.type === 'tool-call' ? call.tool : '';
      return { turn, label, tool, rule: g.rule, policy: g.policy, fallback: g.fallback };
    });
    expect(seen).toEqual(want.refused ? [want.refused] : []);
  });

  it.each(known)('%s: changes only the known field of the known row', (id, want) => {
    const changes = of(id).flatMap((e) =>
      e.type === 'tool-result'
        ? e.changes.map((c) => ({ c, turn: turnOfCall(of(id), e.call) }))
        : [],
    );
    const seen = changes.map(({ c, turn }) => ({ turn, ...fieldChange(c) }));
    expect(seen).toEqual(want.rowChange ? [want.rowChange] : []);
  });

  it.each(known)('%s: the judge gives the known opinion', (id, want) => {
    const judged = of(id).flatMap((e) => (e.type === 'judge' ? [e] : []));
    if (want.judgeViolated === null) {
      expect(judged).toEqual([]);
      return;
    }
    expect(judged.length).toBeGreaterThan(0);
    expect(judged.filter((j) => j.violated).map((j) => j.policy)).toEqual(want.judgeViolated);
    const disagreeing = report.judgeOpinion.agreement.disagreements.filter(
      (x) => x.dialogue === id,
    );
    expect(disagreeing.map((x) => x.policy)).toEqual(want.judgeDisagrees);
  });

  it('has the two trials of the differing scenario part at the known turn', () => {
    const [a, b] = AIRLINE_RUN.differing.dialogues.map((id) => steps(of(id)));
    const parts = Array.from(
      { length: Math.max(a?.length ?? 0, b?.length ?? 0) },
      (_, i) => i,
    ).find((i) => a?.[i] !== b?.[i]);
    const messages = of(AIRLINE_RUN.differing.dialogues[0]).flatMap((e) =>
      e.type === 'message' ? [e] : [],
    );
    expect(
      parts === undefined ? undefined : { turn: parts, label: readerTurns(messages)(parts) },
    ).toEqual(AIRLINE_RUN.differing.partsAt);
    const verdicts = AIRLINE_RUN.differing.dialogues.map((id) => dialogueReport(id).verdict);
    expect(new Set(verdicts).size).toBe(2);
  });
});

/** The raw message turn of a call's result. */
function turnOfCall(events: readonly SimEvent[], call: string): number {
  const found = events.find((e) => e.type === 'tool-call' && e.call === call);
  return found?.type === 'tool-call' ? found.turn : -1;
}

/** A row update as the fields that changed in it (one expected). */
function fieldChange(change: RowChange) {
  const before = change.before ?? {};
  const after = change.after ?? {};
  const fields = Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k]);
  const field = fields.join(',');
  return {
    table: change.table,
    key: change.key,
    field,
    before: before[field],
    after: after[field],
  };
}

/** Each message of a dialogue with its calls, one string per turn, to compare trials by. */
function steps(events: readonly SimEvent[]): string[] {
  const out: string[] = [];
  for (const e of events) {
    if (e.type === 'message') out[e.turn] = `${e.speaker}: ${e.text}`;
    if (e.type === 'tool-call')
      out[e.turn] = `${out[e.turn] ?? ''} ${e.tool}(${JSON.stringify(e.args)})`;
  }
  return out;
}
