import type { Database, RowChange, SimScenario } from './events.ts';
import { testScenario } from '../testing/scenarios.ts';

// A reservation desk the expectation tests share: one reservation cancelled, one user renamed.
export const active = { id: 'ABC123', status: 'active', amount: 420.5 };
export const startDb: Database = { reservations: [active], users: [{ id: 'u1', name: 'Ann' }] };
export const cancelledRow = { ...active, status: 'cancelled' };
export const cancelChange: RowChange = {
  table: 'reservations',
  key: 'ABC123',
  kind: 'update',
  before: active,
  after: cancelledRow,
};
export const renamed: RowChange = {
  table: 'users',
  key: 'u1',
  kind: 'update',
  before: { id: 'u1', name: 'Ann' },
  after: { id: 'u1', name: 'Bo' },
};
export const finalDb: Database = {
  reservations: [cancelledRow],
  users: [{ id: 'u1', name: 'Bo' }],
};

export function scenario(
  expected: Partial<SimScenario['expected']>,
  policies = ['refund-window'],
): SimScenario {
  return testScenario({
    id: 'late-refund',
    policies,
    persona: 'In a hurry',
    goal: 'Refund ABC123',
    expected,
  });
}
