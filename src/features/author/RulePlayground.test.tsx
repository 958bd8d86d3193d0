import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { parseProject } from '../../core/index.ts';
import { MINI_FILES } from '../../core/testing/miniProject.ts';
import type { Call } from '../../test/guardInRun.ts';
import { guardInRun } from '../../test/guardInRun.ts';
import { renderWithStore } from '../../test/renderWithStore.tsx';
import { RulePlayground } from './RulePlayground.tsx';

/*
 * The refund desk with a nullable `note` on orders and two more rules: refunds of orders that do
 * not exist, or carry a note, are refused. Both read the database, so what the playground puts in
 * it shows in its decision, which must be the decision a run makes on the same rows.
 */
const FILES = {
  ...MINI_FILES,
  'database.yaml': MINI_FILES['database.yaml'].replace(
    '      days_since_delivery: { type: integer }\n',
    '      days_since_delivery: { type: integer }\n      note: { type: string, nullable: true }\n',
  ),
  'rules.yaml': MINI_FILES['rules.yaml'].replace(
    '        message: Verify the customer first.\n',
    `        message: Verify the customer first.
      - id: refund-known-order
        policy: refund-window
        decision: forbid
        when: '!db.orders.exists(o, o.id == args.order_id)'
        message: There is no such order.
      - id: refund-flagged
        policy: refund-window
        decision: forbid
        when: db.orders.exists(o, o.id == args.order_id && o.note != null)
        message: This order is flagged for review.
`,
  ),
};
const model = parseProject({ name: 'Flagged desk', files: FILES }).model;
const LOOKED_UP: Call = { tool: 'get_user', args: { user_id: 'u1' } };
const refund = (order: string): Call => ({ tool: 'refund_order', args: { order_id: order } });
const ALLOWED = {
  allowed: true,
  reason: 'No rule of "refund_order" matched; its default allows the call.',
};

/** What the playground shows for `call` after the customer was looked up, with `rows` typed. */
async function tryInPlayground(rows: unknown, call: Call) {
  const { store } = renderWithStore(<RulePlayground />);
  act(() => {
    store.getState().setFiles(FILES);
  });
  const change = (label: string, value: string) => {
    fireEvent.change(screen.getByLabelText(label), { target: { value } });
  };
  await screen.findByLabelText('Tool');
  change('Tool', call.tool);
  change('Arguments (JSON)', JSON.stringify(call.args));
  change('Earlier calls (JSON list, optional)', JSON.stringify([LOOKED_UP]));
  change('Database rows merged into the seed data by key (JSON, optional)', JSON.stringify(rows));
  const decision = screen.getByRole('status', { name: 'Decision' });
  return {
    allowed: decision.dataset.allowed === 'true',
    reason: decision.querySelector('.decision-reason')?.textContent,
    leftOut: screen.queryByRole('note', { name: 'Rows left out' })?.textContent,
  };
}

/** What a run's guard decides for the same call on the same rows. */
async function tryInRun(rows: Parameters<typeof guardInRun>[1], call: Call) {
  const { allowed, reason } = await guardInRun(model, rows, call, [LOOKED_UP]);
  return { allowed, reason };
}

describe('RulePlayground', () => {
  it('reads a nullable column a typed row leaves out as null, as a run does', async () => {
    // A new order without a note: the flag rule reads `o.note` and finds null, not a gap.
    const rows = {
      orders: [{ id: 'o3', user_id: 'u1', status: 'delivered', days_since_delivery: 3 }],
    };
    const shown = await tryInPlayground(rows, refund('o3'));
    expect(shown).toEqual({ ...ALLOWED, leftOut: undefined });
    expect(await tryInRun(rows, refund('o3'))).toEqual(ALLOWED);
  });

  it("merges a typed row with a seed row's key into the seed data, as a run does", async () => {
    // o2 was delivered 45 days ago in the seed data; the typed row makes it 3, and o1 stays.
    const rows = {
      orders: [{ id: 'o2', user_id: 'u2', status: 'delivered', days_since_delivery: 3 }],
    };
    for (const order of ['o1', 'o2']) {
      const { leftOut, ...shown } = await tryInPlayground(rows, refund(order));
      expect(shown, order).toEqual(ALLOWED);
      expect(leftOut, order).toBeUndefined();
      expect(await tryInRun(rows, refund(order)), order).toEqual(ALLOWED);
    }
  });

  it('says which typed rows a run would leave out, and decides without them', async () => {
    const rows = {
      orders: [{ id: 'o4', user_id: 'u1', status: 'lost', days_since_delivery: 1 }],
      order: [],
    };
    expect(await tryInPlayground(rows, refund('o4'))).toEqual({
      allowed: false,
      reason: 'There is no such order.',
      leftOut:
        'Left out of the database, as a run would leave them out:' +
        'Typed row 1 of "orders" (id "o4") is left out: "status" must be one of "delivered", "refunded", not "lost".' +
        'The typed rows for "order" are left out: there is no such table. Did you mean "orders"?',
    });
  });

  it('shows the rule that refused where rules.yaml writes its id', async () => {
    const { store } = renderWithStore(<RulePlayground />);
    act(() => {
      store.getState().setFiles(FILES);
    });
    await screen.findByLabelText('Tool');
    fireEvent.change(screen.getByLabelText('Tool'), { target: { value: 'refund_order' } });
    fireEvent.change(screen.getByLabelText('Arguments (JSON)'), {
      target: { value: JSON.stringify({ order_id: 'o9' }) },
    });
    fireEvent.change(screen.getByLabelText('Earlier calls (JSON list, optional)'), {
      target: { value: JSON.stringify([LOOKED_UP]) },
    });
    // The verdict's link (the rules tried below link the same rule).
    const [link] = screen.getAllByRole('button', { name: 'refund-known-order' });
    if (!link) throw new Error('no link to the rule');
    fireEvent.click(link);
    const lines = FILES['rules.yaml'].split('\n');
    const line = lines.findIndex((l) => l.includes('id: refund-known-order'));
    expect(store.getState().reveal).toMatchObject({
      file: 'rules.yaml',
      line: line + 1,
      column: (lines[line]?.indexOf('refund-known-order') ?? 0) + 1,
    });
  });
});
