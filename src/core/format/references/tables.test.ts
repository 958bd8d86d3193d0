import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { miniProject, miniWith } from '../../testing/miniProject.ts';
import { exampleProjects, runChecker } from './checkerFixtures.ts';
import { checkTables } from './tables.ts';

const examples = exampleProjects((path) => readFileSync(path, 'utf8'));
const GRACE = '{ id: u2, name: Grace }';

describe('checkTables', () => {
  it('finds nothing in the mini project and the examples', () => {
    for (const project of [miniProject(), ...examples])
      expect(runChecker(checkTables, project), project.name).toEqual([]);
  });

  it('points at the second table of one name', () => {
    const project = miniWith('database.yaml', 'name: orders', 'name: users');
    expect(runChecker(checkTables, project)).toEqual([
      'database.yaml:10:11 "users" error duplicate-id: The table "users" is defined twice.',
    ]);
  });

  it('points at a key that is not a column of its table', () => {
    const project = miniWith('database.yaml', 'key: id', 'key: uid');
    expect(runChecker(checkTables, project)).toEqual([
      'database.yaml:3:10 "uid" error unknown-column: Unknown column "uid" in table "users". Did you mean "id"?',
    ]);
  });

  it('points at a column that references no table', () => {
    const project = miniWith('database.yaml', 'references: users', 'references: user');
    expect(runChecker(checkTables, project)).toEqual([
      'database.yaml:14:44 "user" error unknown-table: Unknown table "user". Did you mean "users"?',
    ]);
  });

  it('points at a seed row with an unknown column and the column it lacks', () => {
    const project = miniWith('database.yaml', GRACE, '{ id: u2, nam: Grace }');
    expect(runChecker(checkTables, project)).toEqual([
      'database.yaml:9:24 "Grace" error bad-row: "users" has no column "nam". Did you mean "name"?',
      'database.yaml:9:9 "{ id: u2, nam: Grace }" error bad-row: This row of "users" lacks "name" (string).',
    ]);
  });

  it('points at values outside their enum or type', () => {
    const project = miniWith(
      'database.yaml',
      'status: delivered, days_since_delivery: 5 }',
      'status: lost, days_since_delivery: 5.5 }',
    );
    expect(runChecker(checkTables, project)).toEqual([
      'database.yaml:18:40 "lost" error bad-row: "status" must be one of "delivered", "refunded", not "lost".',
      'database.yaml:18:67 "5.5" error bad-row: "days_since_delivery" must be an integer, not 5.5.',
    ]);
  });

  it('points at a seed row whose key an earlier row has', () => {
    const project = miniWith('database.yaml', GRACE, '{ id: u1, name: Grace }');
    expect(runChecker(checkTables, project)).toEqual([
      'database.yaml:9:15 "u1" error duplicate-key: Another row of "users" already has id "u1".',
    ]);
  });
});
