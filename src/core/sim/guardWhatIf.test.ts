import { beforeAll, describe, expect, it } from 'vitest';
import { airlineProject, recordAirlineRun } from '../../test/airlineRun.ts';
import { parseProject } from '../format/parseProject.ts';
import type { ProjectModel } from '../format/model.ts';
import type { SimEvent } from './events.ts';
import type { GuardWhatIf } from './guardWhatIf.ts';
import { guardWhatIf } from './guardWhatIf.ts';
import { replayOf } from './replay.ts';

let events: SimEvent[];
beforeAll(async () => {
  events = await recordAirlineRun();
});

const RULES = airlineProject().files['rules.yaml'];

/** The airline project as parsed today, with rules.yaml's `from` replaced by `to` (each in turn). */
function todayWith(...edits: readonly (readonly [string, string])[]): ProjectModel {
  const project = airlineProject();
  let rules = RULES;
  for (const [from, to] of edits) {
    if (!rules.includes(from)) throw new Error(`rules.yaml has no ${JSON.stringify(from)}`);
    rules = rules.replace(from, to);
  }
  const { model, diagnostics } = parseProject({
    ...project,
    files: { ...project.files, 'rules.yaml': rules },
  });
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((d) => d.message).join('\n'));
  return model;
}

/** A guard rule put first among `tool`'s rules. */
const firstRule = (tool: string, rule: string): [string, string] => {
  const head = new RegExp(`\\n  ${tool}:\\n    default: \\w+\\n    rules:\\n`).exec(RULES)?.[0];
  if (head === undefined) throw new Error(`rules.yaml has no guards for ${tool}`);
  return [head, `${head}${rule}`];
};

const dialoguesOf = (log: readonly SimEvent[]) => [
  ...new Set(log.flatMap((e) => (e.type === 'dialogue-started' ? [e.dialogue] : []))),
];

/** Every what-if of every dialogue of a log, as `dialogue call-id` → what-if. */
function whatIfs(model: ProjectModel, log: readonly SimEvent[] = events) {
  const all = new Map<string, GuardWhatIf>();
  for (const dialogue of dialoguesOf(log)) {
    const answer = guardWhatIf(model, replayOf(log, dialogue));
    if (!answer.ok) throw new Error(answer.problem);
    for (const w of answer.calls.values()) all.set(`${dialogue} ${w.call}`, w);
  }
  return all;
}

const differing = (all: ReadonlyMap<string, GuardWhatIf>) =>
  [...all].filter(([, w]) => w.differs).map(([at]) => at);

/** `log` with `added` put in just before the `dialogue-ended` of `dialogue`. */
function withEventsBeforeEnd(log: readonly SimEvent[], dialogue: string, added: SimEvent[]) {
  const end = log.findIndex((e) => e.type === 'dialogue-ended' && e.dialogue === dialogue);
  return [...log.slice(0, end), ...added, ...log.slice(end)];
}

/** A call the log records as decided and run (no rows changed), in turn `turn`. */
function loggedCall(
  dialogue: string,
  turn: number,
  call: string,
  tool: string,
  args: Record<string, unknown>,
  allowed: boolean,
): SimEvent[] {
  return [
    { type: 'tool-call', at: 0, dialogue, turn, call, tool, args },
    { type: 'guard', at: 0, dialogue, call, allowed, reason: 'As logged.' },
    { type: 'tool-result', at: 0, dialogue, call, ok: allowed, result: '{}', changes: [] },
  ];
}

describe('what today’s guard rules would decide about a recorded run’s calls', () => {
  it('with the rules the run had, decides every call as the log did', () => {
    const all = whatIfs(parseProject(airlineProject()).model);
    // 3 calls in each of the six dialogues that got that far, 2 in the two cut off (AIRLINE_RUN).
    expect(all.size).toBe(21);
    expect(differing(all)).toEqual([]);
    expect(all.get('late-refund-without-insurance#1 call-4-0')).toMatchObject({
      allowed: false,
      rule: 'not-refundable',
      policy: 'refund-within-24-hours',
      fallback: 'message',
    });
  });

  it('says which logged-allowed call today’s rules would refuse, and by which rule', () => {
    const today = todayWith(
      firstRule(
        'cancel_reservation',
        `      - id: no-business-cancel
        policy: refund-business-class
        decision: forbid
        when: db.reservations.exists(r, r.id == args.reservation_id && r.cabin == "business")
        fallback: end
        message: Business-class trips are cancelled by the premium desk.
`,
      ),
    );
    const all = whatIfs(today);
    expect(differing(all)).toEqual([
      'cancel-one-leg-only#1 call-4-0',
      'cancel-one-leg-only#2 call-4-0',
    ]);
    expect(all.get('cancel-one-leg-only#1 call-4-0')).toEqual({
      step: expect.any(Number) as number,
      call: 'call-4-0',
      allowed: false,
      rule: 'no-business-cancel',
      policy: 'refund-business-class',
      fallback: 'end',
      reason: 'Business-class trips are cancelled by the premium desk.',
      differs: true,
    });
  });

  it('says which logged-refused call today’s rules would allow', () => {
    const today = todayWith(
      ['r.booked_hours_ago > 24 && r.cabin', 'r.booked_hours_ago > 9999 && r.cabin'],
      ['cancel_reservation:\n    default: deny', 'cancel_reservation:\n    default: allow'],
    );
    const all = whatIfs(today);
    expect(differing(all)).toEqual(['late-refund-without-insurance#1 call-4-0']);
    const late = all.get('late-refund-without-insurance#1 call-4-0');
    expect(late).toMatchObject({ allowed: true, differs: true });
    expect(late?.rule).toBeUndefined();
    expect(late?.reason).toBe(
      'No rule of "cancel_reservation" matched; its default allows the call.',
    );
  });

  it('gives each call the decisions the log recorded for the calls before it, not today’s', () => {
    // Today the late cancellation would be allowed, and a look-up after an allowed cancellation
    // refused; the look-up after it came after a refusal, which is what happened.
    const today = todayWith(
      ['r.booked_hours_ago > 24 && r.cabin', 'r.booked_hours_ago > 9999 && r.cabin'],
      ['cancel_reservation:\n    default: deny', 'cancel_reservation:\n    default: allow'],
      firstRule(
        'get_reservation',
        `      - id: no-reads-after-cancel
        policy: verify-identity-before-account-actions
        decision: forbid
        when: history.exists(c, c.tool == "cancel_reservation" && c.allowed)
        message: Already cancelled.
`,
      ),
    );
    const dialogue = 'late-refund-without-insurance#1';
    const log = withEventsBeforeEnd(
      events,
      dialogue,
      loggedCall(dialogue, 9, 'call-after', 'get_reservation', { reservation_id: 'HV2M8P' }, true),
    );
    const all = whatIfs(today, log);
    expect(all.get(`${dialogue} call-4-0`)).toMatchObject({ allowed: true, differs: true });
    expect(all.get(`${dialogue} call-after`)).toMatchObject({ allowed: true, differs: false });
  });

  it('gives each call the database as it stood just before it: earlier changes in, its own out', () => {
    // cancel-within-24-hours cancels TQ7H3K; a second cancellation is added after the first.
    const today = todayWith(
      firstRule(
        'cancel_reservation',
        `      - id: cancel-once
        policy: refund-within-24-hours
        decision: forbid
        when: db.reservations.exists(r, r.id == args.reservation_id && r.status == "cancelled")
        message: This reservation is already cancelled.
`,
      ),
    );
    const dialogue = 'cancel-within-24-hours#1';
    const args = { reservation_id: 'TQ7H3K', reason: 'change_of_plans' };
    const log = withEventsBeforeEnd(
      events,
      dialogue,
      loggedCall(dialogue, 9, 'call-again', 'cancel_reservation', args, true),
    );
    const all = whatIfs(today, log);
    expect(all.get(`${dialogue} call-4-0`)).toMatchObject({ allowed: true, differs: false });
    expect(all.get(`${dialogue} call-again`)).toMatchObject({
      allowed: false,
      rule: 'cancel-once',
      differs: true,
    });
    expect(differing(all)).toEqual([`${dialogue} call-again`]);
  });

  it('makes no what-if for a call whose decision the log lacks', () => {
    const dialogue = 'cancel-within-24-hours#1';
    const log = events.filter((e) => !(e.type === 'guard' && e.dialogue === dialogue));
    const answer = guardWhatIf(parseProject(airlineProject()).model, replayOf(log, dialogue));
    expect(answer).toEqual({ ok: true, calls: new Map(), foreignTools: [] });
  });

  it('refuses, in words, a log that does not record its run’s `now`', () => {
    const log = events.map((e) => {
      if (e.type !== 'run-started') return e;
      const { now: _now, ...older } = e;
      return older;
    });
    const answer = guardWhatIf(
      parseProject(airlineProject()).model,
      replayOf(log, 'cancel-within-24-hours#1'),
    );
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.problem).toMatch(/before format 3.*time its rules saw/);
  });
});
