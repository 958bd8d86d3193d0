import { describe, expect, it } from 'vitest';
import { analyzeProject } from '../analyze.ts';
import { parseProject } from '../format/parseProject.ts';
import { MINI_FILES, miniProject } from '../testing/miniProject.ts';
import { projectFromFiles } from '../bundle.ts';
import { REFUND_PLAN, refundScenario } from '../../test/refundDesk.ts';
import { waitingRuntime } from '../../test/scriptedModels.ts';
import { seedDatabase } from './database.ts';
import type { SimEvent } from './events.ts';
import { reportOf } from './report.ts';
import { runSimulation } from './run.ts';
import { runTool } from './toolRuntime.ts';

// The mini project with refund_order's behaviour missing, as an importer writes a tool whose
// code it could not read: the effects stay (a hand edit may have left some), the mark wins.
const REASON = 'what it changes could not be read (it uses "while" (line 3)).';
const files = {
  ...MINI_FILES,
  'tools.yaml': MINI_FILES['tools.yaml'].replace(
    '        set: { status: \'"refunded"\' }',
    `        set: { status: '"refunded"' }\n    not_imported: '${REASON}'`,
  ),
};
const project = projectFromFiles('mini', files).project;
const { model } = parseProject(project);

describe('a tool marked not_imported', () => {
  it('is read from tools.yaml, and check warns at the mark', () => {
    expect(files['tools.yaml']).not.toBe(MINI_FILES['tools.yaml']);
    expect(model.tools.find((t) => t.name === 'refund_order')?.notImported).toBe(REASON);
    const warning = analyzeProject(project).diagnostics.find((d) => d.code === 'tool-not-imported');
    expect(warning).toMatchObject({ severity: 'warning', file: 'tools.yaml' });
    expect(warning?.message).toContain('"refund_order" was not imported (what it changes');
    expect(
      analyzeProject(miniProject()).diagnostics.filter((d) => d.code === 'tool-not-imported'),
    ).toEqual([]);
  });

  it('fails every call, changing nothing, and says so: never an {"ok":true}', () => {
    const { db } = seedDatabase(model);
    const outcome = runTool(
      model,
      db,
      { tool: 'refund_order', args: { order_id: 'o1' } },
      { now: '2026-11-21T12:00:00Z' },
    );
    expect(outcome).toEqual({
      ok: false,
      db,
      notImported: true,
      error: `Tool "refund_order" was not imported: ${REASON}`,
    });
  });

  it('ends a dialogue that calls it as an error of the project, not a pass or a failure', async () => {
    const events: SimEvent[] = [];
    let tick = 0;
    await runSimulation(
      model,
      {
        ...REFUND_PLAN,
        scenarios: [
          {
            scenario: refundScenario('fresh', 'Refund order o1.', [
              'db.orders.exists(o, o.id == "o1" && o.status == "delivered")',
            ]),
            source: 'hand-written',
          },
        ],
        trials: 1,
        concurrency: 1,
      },
      { runtime: waitingRuntime().runtime, clock: () => tick++, emit: (e) => events.push(e) },
    );
    const result = events.find((e) => e.type === 'tool-result' && !e.ok);
    expect(result).toMatchObject({
      result: `Error: Tool "refund_order" was not imported: ${REASON}`,
      changes: [],
    });
    expect(events.find((e) => e.type === 'dialogue-ended')).toMatchObject({
      reason: 'project-error',
    });
    // Its database expectation holds (nothing changed), yet the dialogue is no pass.
    const [dialogue] = reportOf(events, new Map()).dialogues;
    expect(dialogue?.verdict).toBe('error');
  });
});
