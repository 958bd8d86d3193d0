import { describe, expect, it } from 'vitest';
import { guardInRun } from '../../test/guardInRun.ts';
import { parseProject } from '../format/parseProject.ts';
import { MINI_FILES, miniProject } from '../testing/miniProject.ts';
import { lintProject } from './lint.ts';

/*
 * Lint searches for contradicting rules on the database a run starts from: the seed rows as
 * seedDatabase makes them, nullable columns a row leaves out read as null.
 */
const project = miniProject({
  // No seed order writes a note.
  'database.yaml': MINI_FILES['database.yaml'].replace(
    '      days_since_delivery: { type: integer }\n',
    '      days_since_delivery: { type: integer }\n      note: { type: string, nullable: true }\n',
  ),
  'rules.yaml': `guards:
  refund_order:
    rules:
      - id: refund-unflagged
        policy: refund-window
        decision: allow
        when: db.orders.exists(o, o.id == args.order_id && o.note == null)
      - id: refund-late
        policy: refund-window
        decision: forbid
        when: db.orders.exists(o, o.id == args.order_id && o.days_since_delivery > 30)
        message: This order is outside the 30-day window.
checks:
  - id: confirm-refund
    policy: refund-window
    kind: confirm_before
    tool: refund_order
`,
});

describe('lint and a run see one database', () => {
  it('reads a nullable column the seed rows leave out as null, as a run does', async () => {
    const parsed = parseProject(project);
    const found = lintProject(parsed).filter((d) => d.code === 'contradicting-rules');
    expect(found.map((d) => `${d.file}:${d.line} ${d.message}`)).toEqual([
      'rules.yaml:11 "refund-late" (forbid) and "refund-unflagged" (allow) both match arguments {"order_id":"o2","amount":0}; "refund-unflagged" comes first and wins.',
    ]);
    // The run agrees: o2 (45 days, no note) is allowed by the rule lint says wins.
    const refund = { tool: 'refund_order', args: { order_id: 'o2', amount: 0 } };
    expect(await guardInRun(parsed.model, {}, refund)).toEqual({
      allowed: true,
      rule: 'refund-unflagged',
      reason: 'Allowed by "refund-unflagged" (refund-window).',
    });
  });
});
