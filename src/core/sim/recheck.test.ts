import { describe, expect, it } from 'vitest';
import { parseProject } from '../format/parseProject.ts';
import { projectHash } from '../project.ts';
import { MINI_FILES, miniProject } from '../testing/miniProject.ts';
import { mini, simulateRefunds } from '../../test/refundDesk.ts';
import { compareRuns } from './compare.ts';
import type { SimEvent } from './events.ts';
import { readLog } from './logFormat.ts';
import { recheckRun } from './recheck.ts';
import { reportOf } from './report.ts';

const FACTS = new Map(
  mini.policies.map((p) => [p.id, { category: p.category, challenge: p.challenge }]),
);
const verdicts = (events: readonly SimEvent[]) =>
  Object.fromEntries(reportOf(events, FACTS).dialogues.map((d) => [d.dialogue, d.verdict]));
const findingsOf = (events: readonly SimEvent[]) =>
  events.flatMap((e) => (e.type === 'checks' ? [[e.dialogue, e.findings]] : []));

/** The mini project with a transcript check added to rules.yaml. */
const withCheck = (check: string) =>
  parseProject(miniProject({ 'rules.yaml': `${MINI_FILES['rules.yaml']}${check}` })).model;

/** scenarios.yaml with a scenario "fresh" (a refund of o1) expecting o1 to meet `status`. */
const withFresh = (status: string) => `${MINI_FILES['scenarios.yaml']}  - id: fresh
    policies: [refund-window]
    persona: A customer.
    goal: Refund order o1.
    knows: [user id u1]
    expected:
      database:
        - db.orders.exists(o, o.id == "o1" && ${status})
`;

/** Today's files, as the re-check records them. */
const TODAY = { 'agent.md': 'Today’s prompt.\n' };

describe('recheckRun', () => {
  it('judges a run against unchanged files exactly as the run did, without a model call', async () => {
    const { events } = await simulateRefunds();
    const again = recheckRun(mini, TODAY, 'run-1', events);
    expect(again.rechecked).toBe(4);
    expect(again.kept).toEqual([]);
    expect(findingsOf(again.events)).toEqual(findingsOf(events));
    expect(verdicts(again.events)).toEqual(verdicts(events));
    expect(again.events.filter((e) => e.type === 'usage')).toEqual(
      events.filter((e) => e.type === 'usage'),
    );
    expect(again.events[0]).toMatchObject({
      type: 'run-started',
      projectHash: projectHash(TODAY),
      files: TODAY,
      source: { kind: 'rechecked', run: 'run-1' },
    });
    // The derived log is a valid log of the current format.
    expect(readLog(JSON.parse(JSON.stringify(again.events)))).toMatchObject({ ok: true });
  });

  it('flips exactly the dialogues an edited check now fails', async () => {
    const { events } = await simulateRefunds();
    expect(verdicts(events)).toEqual({
      'fresh#1': 'pass',
      'fresh#2': 'pass',
      'late#1': 'fail',
      'late#2': 'fail',
    });
    const model = withCheck(`  - id: never-name-o1
    policy: refund-window
    kind: must_not_say
    pattern: '\\bo1\\b'
`);
    const again = recheckRun(model, TODAY, 'run-1', events);
    const c = compareRuns(reportOf(events, FACTS), reportOf(again.events, FACTS));
    expect(c.broke.map((f) => f.after.dialogue)).toEqual(['fresh#1', 'fresh#2']);
    expect(c.fixed).toEqual([]);
    const fresh = reportOf(again.events, FACTS).dialogues.find((d) => d.dialogue === 'fresh#1');
    expect(fresh?.breaches.map((b) => b.id)).toEqual(['never-name-o1']);
  });

  it("uses today's expectations of a scenario scenarios.yaml still has", async () => {
    const { events } = await simulateRefunds();
    const model = parseProject(
      miniProject({ 'scenarios.yaml': withFresh('o.status == "delivered"') }),
    ).model;
    const again = recheckRun(model, TODAY, 'run-1', events);
    expect(again.scenariosFromProject).toEqual(['fresh']);
    expect(verdicts(again.events)).toEqual({
      'fresh#1': 'fail',
      'fresh#2': 'fail',
      'late#1': 'fail',
      'late#2': 'fail',
    });
    // The do-nothing agent keeps o1 delivered: today's expectation proves little, and it says so.
    const fresh = again.events.find((e) => e.type === 'scenario' && e.scenario.id === 'fresh');
    expect(fresh?.type === 'scenario' && fresh.baseline?.passes).toBe(true);
  });

  it('rebuilds the database from the rows the run recorded, not from today’s seed rows', async () => {
    const { events } = await simulateRefunds();
    // Today o1 is already refunded in the seed rows; the run started with it delivered.
    const model = parseProject(
      miniProject({
        'database.yaml': MINI_FILES['database.yaml'].replace(
          '{ id: o1, user_id: u1, status: delivered',
          '{ id: o1, user_id: u1, status: refunded',
        ),
        'scenarios.yaml': withFresh('o.status == "refunded"'),
      }),
    ).model;
    const again = recheckRun(model, TODAY, 'run-1', events);
    expect(again.notes).toEqual([]);
    const fresh = again.events.find((e) => e.type === 'scenario' && e.scenario.id === 'fresh');
    // Against the recorded start (o1 delivered) doing nothing does not refund o1.
    expect(fresh?.type === 'scenario' && fresh.baseline?.passes).toBe(false);
    const { database: _d, ...older } = events[0] as Extract<SimEvent, { type: 'run-started' }>;
    const withoutSeeds = recheckRun(model, TODAY, 'run-1', [older, ...events.slice(1)]);
    expect(withoutSeeds.notes).toHaveLength(1);
  });
});
