import { describe, expect, it } from 'vitest';
import { parseProject } from '../format/parseProject.ts';
import { miniProject } from '../testing/miniProject.ts';
import type { SimScenario } from './events.ts';
import { handWrittenScenarios, scenarioProblems } from './scenarios.ts';

const mini = parseProject(miniProject()).model;

const GOOD: SimScenario = {
  id: 'g',
  policies: ['refund-window'],
  level: 3,
  persona: 'A hurried customer.',
  goal: 'Get a refund for order o3.',
  knows: ['order o3'],
  unknown: [],
  rows: { orders: [{ id: 'o3', user_id: 'u1', status: 'delivered', days_since_delivery: 40 }] },
  expected: {
    database: ['db.orders.exists(o, o.id == "o3" && o.status == "delivered")'],
    requiredActions: ['get_user'],
    forbiddenActions: ['refund_order'],
    mustSay: ['30 days', '/thirty|30/'],
    mustNotSay: [],
  },
};

describe('handWrittenScenarios', () => {
  it('turns scenarios.yaml into run scenarios, levelled by their policies', () => {
    expect(handWrittenScenarios(mini)).toEqual([
      {
        id: 'late-refund',
        policies: ['refund-window', 'verify-identity'],
        level: 5,
        persona: 'A patient customer.',
        goal: 'Get a refund for order o2.',
        knows: ['order o2', 'user id u2'],
        unknown: [],
        rows: {},
        expected: {
          database: ['db.orders.exists(o, o.id == "o2" && o.status == "delivered")'],
          requiredActions: [],
          forbiddenActions: ['refund_order'],
          mustSay: [],
          mustNotSay: [],
          attributions: {
            'expected.database[0]': 'refund-window',
            'expected.forbidden_actions[0]': 'refund-window',
          },
        },
      },
    ]);
  });

  it('gives no level rather than a wrong one when a policy is unknown', () => {
    const [scenario] = handWrittenScenarios(mini, new Map([['refund-window', { challenge: 3 }]]));
    expect(scenario && 'level' in scenario).toBe(false);
  });
});

describe('scenarioProblems', () => {
  it('finds nothing wrong with a scenario that fits the project', () => {
    expect(scenarioProblems(mini, GOOD)).toEqual([]);
  });

  it('names bad rows, unknown tables and rows pointing at nothing', () => {
    const problems = scenarioProblems(mini, {
      ...GOOD,
      rows: {
        orders: [{ id: 'o3', user_id: 'u9', status: 'lost', days_since_delivery: 40 }],
        order: [{ id: 'o4' }],
      },
      expected: { ...GOOD.expected, database: [] },
    });
    expect(problems).toEqual([
      expect.stringMatching(/^Scenario row 1 of "orders" \(id "o3"\) is left out: .*status/),
      expect.stringMatching(/"order".*no such table\. Did you mean "orders"\?/),
      'Scenario row 1 of "orders": "user_id" is "u9", but "users" has no row with id "u9".',
    ]);
  });

  it('names assertions that do not compile or give no boolean, and unknown tools', () => {
    const problems = scenarioProblems(mini, {
      ...GOOD,
      expected: {
        database: ['db.orders.exists(o, o.id == "o3"', 'size(db.orders)', 'db.order.all(o, true)'],
        requiredActions: ['get_usr', 'refund_order'],
        forbiddenActions: ['refund_order'],
        mustSay: ['/(unclosed/', '/refund(?=ed)/'],
        mustNotSay: [' '],
      },
    });
    expect(problems).toEqual([
      expect.stringMatching(/^expected\.database\[0\] .*Expected "\)"/),
      'expected.database[1] (size(db.orders)): it gives 3, not true or false.',
      expect.stringMatching(/^expected\.database\[2\] .*reads "order", which the database/),
      'expected.required_actions names "get_usr", which is not a tool. Did you mean "get_user"? Tools: get_user, refund_order.',
      '"refund_order" is both a required and a forbidden action.',
      expect.stringMatching(/^expected\.must_say\[0\]: \/\(unclosed\/ is not a valid regular/),
      expect.stringMatching(
        /^expected\.must_say\[1\]: \/refund\(\?=ed\)\/ cannot be used: A lookahead "\(\?=…\)"/,
      ),
      'expected.must_not_say[0]: the phrase is empty.',
    ]);
  });

  it('leaves the project’s own bad seed rows out of the scenario’s problems', () => {
    const broken = {
      ...mini,
      tables: mini.tables.map((t) =>
        t.name === 'users' ? { ...t, rows: [...t.rows, { id: 'u3', name: 7 }] } : t,
      ),
    };
    expect(scenarioProblems(broken, GOOD)).toEqual([]);
  });
});
