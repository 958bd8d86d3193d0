import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MINI_FILES, miniProject, miniWith } from '../../testing/miniProject.ts';
import { exampleProjects, runChecker } from './checkerFixtures.ts';
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
      'scenarios.yaml:11:9 "late-refund" error duplicate-id: The scenario id "late-refund" is used twice; ids must be unique.',
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
      'scenarios.yaml:9:56 "=" error cel: CEL: Unexpected "=": to compare, write "==".',
    ]);
  });

  it('points at required and forbidden tools that tools.yaml does not define', () => {
    const project = miniWith(
      'scenarios.yaml',
      'forbidden_actions: [refund_order]',
      'required_actions: [get_users]\n      forbidden_actions: [refund]',
    );
    expect(runChecker(checkScenarios, project)).toEqual([
      'scenarios.yaml:10:26 "get_users" error unknown-tool: Unknown tool "get_users". Did you mean "get_user"?',
      'scenarios.yaml:11:27 "refund" error unknown-tool: Unknown tool "refund".',
    ]);
  });
});
