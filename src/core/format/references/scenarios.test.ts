import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MINI_FILES, miniProject, miniWith } from '../../testing/miniProject.ts';
import { exampleProjects, runChecker } from './checkerFixtures.ts';
import { parseProject } from '../parseProject.ts';
import { checkScenarios } from './scenarios.ts';

const examples = exampleProjects((path) => readFileSync(path, 'utf8'));
const ROWS = `    rows:
      order: [{ id: o3 }]
      orders:
        - { id: o1, user_id: u1, status: delivered, days_since_delivery: 50 }
        - { id: o3, user_id: u1, status: lost, days_since_delivery: 1 }
        - { id: o3, user_id: u1, status: delivered, days_since_delivery: 1 }
`;

describe('checkScenarios', () => {
  it('finds nothing in the mini project and the examples', () => {
    for (const project of [miniProject(), ...examples])
      expect(runChecker(checkScenarios, project), project.name).toEqual([]);
  });

  it('points at the second scenario of one id', () => {
    const scenarios = MINI_FILES['scenarios.yaml'];
    const project = miniProject({
      'scenarios.yaml': scenarios + scenarios.replace('scenarios:\n', ''),
    });
    expect(runChecker(checkScenarios, project)).toEqual([
      'scenarios.yaml:13:9 "late-refund" error duplicate-id: The scenario id "late-refund" is used twice; ids must be unique.',
    ]);
  });

  it('points at a policy that policies.yaml does not define', () => {
    const project = miniWith('scenarios.yaml', 'verify-identity]', 'verify-identiy]');
    expect(runChecker(checkScenarios, project)).toEqual([
      'scenarios.yaml:3:31 "verify-identiy" error unknown-policy: Unknown policy "verify-identiy". Did you mean "verify-identity"?',
    ]);
  });

  it('points at rows for no table, rows that do not fit, and keys given twice', () => {
    const project = miniWith('scenarios.yaml', '    expected:\n', `${ROWS}    expected:\n`);
    expect(runChecker(checkScenarios, project)).toEqual([
      'scenarios.yaml:8:7 "order" error unknown-table: Unknown table "order". Did you mean "orders"?',
      'scenarios.yaml:10:17 "o1" warning duplicate-key: The seed data of "orders" already has id "o1"; this row would replace it.',
      'scenarios.yaml:11:42 "lost" error bad-row: "status" must be one of "delivered", "refunded", not "lost".',
      'scenarios.yaml:12:17 "o3" error duplicate-key: Another row of "orders" already has id "o3".',
    ]);
  });

  it('reads end_state, and points at a table or column it names that does not exist', () => {
    const end = `      end_state:
        orders:
          o2: { status: refunded }
          o9: null
        order: { o2: { status: refunded } }
        users: { u2: { nme: Ann } }
`;
    const project = miniWith(
      'scenarios.yaml',
      '      forbidden_actions:\n',
      `${end}      forbidden_actions:\n`,
    );
    expect(runChecker(checkScenarios, project)).toEqual([
      'scenarios.yaml:15:9 "order" error unknown-table: Unknown table "order". Did you mean "orders"?',
      'scenarios.yaml:16:24 "nme" error unknown-column: Unknown column of users "nme". Did you mean "name"?',
    ]);
    const { model } = parseProject(project);
    expect(model.scenarios[0]?.expected.endState).toEqual({
      orders: { o2: { status: 'refunded' }, o9: null },
      order: { o2: { status: 'refunded' } },
      users: { u2: { nme: 'Ann' } },
    });
  });

  it('checks no table names against a database.yaml that could not be read', () => {
    const project = miniProject({
      'database.yaml': 'tables: [',
      'scenarios.yaml': MINI_FILES['scenarios.yaml'].replace(
        '    expected:\n',
        '    rows:\n      order: [{ id: o3 }]\n    expected:\n',
      ),
    });
    expect(runChecker(checkScenarios, project)).toEqual([]);
  });

  it('points into an expected database condition at the CEL problem', () => {
    const project = miniWith(
      'scenarios.yaml',
      'o.status == "delivered")',
      'o.status = "delivered")',
    );
    expect(runChecker(checkScenarios, project)).toEqual([
      'scenarios.yaml:9:64 "=" error cel: CEL: Unexpected "=": to compare, write "==".',
    ]);
  });

  it('points at required and forbidden tools that tools.yaml does not define, written either way', () => {
    const project = miniWith(
      'scenarios.yaml',
      '      forbidden_actions:\n        - { tool: refund_order, policy: refund-window }',
      '      required_actions:\n        - { tool: get_users, policy: verify-identity }\n      forbidden_actions:\n        - { tool: refund, policy: refund-window }',
    );
    expect(runChecker(checkScenarios, project)).toEqual([
      'scenarios.yaml:12:19 "get_users" error unknown-tool: Unknown tool "get_users". Did you mean "get_user"?',
      'scenarios.yaml:14:19 "refund" error unknown-tool: Unknown tool "refund".',
    ]);
  });

  it('points at an expectation’s unknown policy, and one the scenario does not put in play', () => {
    const project = miniWith(
      'scenarios.yaml',
      '        - { tool: refund_order, policy: refund-window }',
      '        - { tool: refund_order, policy: refund-windw }\n        - { tool: get_user, policy: be-polite }',
    );
    const withPolite = miniProject({
      ...project.files,
      'policies.yaml': project.files['policies.yaml'].replace(
        'relations:',
        '  - id: be-polite\n    text: Greet.\n    category: tone\n    challenge: 1\nrelations:',
      ),
    });
    expect(runChecker(checkScenarios, withPolite)).toEqual([
      'scenarios.yaml:12:41 "refund-windw" error unknown-policy: Unknown policy "refund-windw". Did you mean "refund-window"?',
      'scenarios.yaml:13:37 "be-polite" warning policy-not-in-play: This expectation holds the agent to "be-polite", which the scenario does not put in play; add it to the scenario\'s policies.',
    ]);
  });

  it('warns about an expectation nothing could charge a failure to, and not when there is one policy', () => {
    const plain = miniWith(
      'scenarios.yaml',
      '        - { tool: refund_order, policy: refund-window }',
      '        - refund_order',
    );
    expect(runChecker(checkScenarios, plain)).toEqual([
      'scenarios.yaml:12:11 "refund_order" warning unattributed-expectation: This expectation names no policy, and its scenario has 2: a failure of it could be charged to none. Write it as { tool: …, policy: <one of refund-window, verify-identity> }.',
    ]);
    const alone = miniProject({
      'scenarios.yaml': plain.files['scenarios.yaml'].replace(
        'policies: [refund-window, verify-identity]',
        'policies: [refund-window]',
      ),
    });
    expect(runChecker(checkScenarios, alone)).toEqual([]);
  });

  it('warns about args and compare_args a required action’s tool does not declare', () => {
    const project = miniWith(
      'scenarios.yaml',
      '      forbidden_actions:\n',
      '      required_actions:\n        - tool: get_user\n          policy: verify-identity\n          args: { user_id: u2, usr: u2 }\n          compare_args: [user_id, userid]\n      forbidden_actions:\n',
    );
    expect(runChecker(checkScenarios, project)).toEqual([
      'scenarios.yaml:14:37 "u2" warning unknown-argument: Unknown argument of get_user "usr". No call could give it, so this action can never match. Its parameters: user_id.',
      'scenarios.yaml:15:35 "userid" warning unknown-argument: Unknown argument of get_user "userid". Did you mean "user_id"? No call gives it, so comparing it checks nothing. Its parameters: user_id.',
    ]);
  });

  it('accepts a scenario with no policies and no persona, said once, and checks its assertions’ policies', () => {
    const project = miniProject({
      'scenarios.yaml': `scenarios:
  - id: tau-style
    goal: Get a refund for order o1.
    expected:
      required_actions:
        - { tool: refund_order, args: { order_id: o1 } }
      assertions:
        - The agent refunds order o1.
        - { assertion: The agent checks who the customer is., policy: verify-identity }
        - { assertion: The agent is polite., policy: be-polite }
`,
    });
    expect(runChecker(checkScenarios, project)).toEqual([
      'scenarios.yaml:2:9 "tau-style" info no-policies: "tau-style" puts no policy in play, so a failure of an expectation that names none is reported as unattributed. List the policies it tests under "policies:" to have them counted.',
      'scenarios.yaml:9:71 "verify-identity" warning policy-not-in-play: This expectation holds the agent to "verify-identity", which the scenario does not put in play; add it to the scenario\'s policies.',
      'scenarios.yaml:10:54 "be-polite" error unknown-policy: Unknown policy "be-polite".',
    ]);
  });
});
