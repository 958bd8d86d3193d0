import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MINI_FILES, miniProject, miniWith } from '../../testing/miniProject.ts';
import { exampleProjects, runChecker } from './checkerFixtures.ts';
import { checkTools } from './tools.ts';

const examples = exampleProjects((path) => readFileSync(path, 'utf8'));
const SET_STATUS = `        set: { status: '"refunded"' }\n`;

describe('checkTools', () => {
  it('finds nothing in the mini project and the examples', () => {
    for (const project of [miniProject(), ...examples])
      expect(runChecker(checkTools, project), project.name).toEqual([]);
  });

  it('points at the second tool of one name', () => {
    const project = miniWith('tools.yaml', 'name: refund_order', 'name: get_user');
    expect(runChecker(checkTools, project)).toEqual([
      'tools.yaml:13:11 "get_user" error duplicate-id: The tool "get_user" is defined twice.',
    ]);
  });

  it('points at a precondition that names a policy policies.yaml does not define', () => {
    const requires = (policy: string) =>
      `    requires:\n      - condition: db.orders.exists(o, o.id == args.order_id && o.status == "delivered")\n        error: Only delivered orders can be refunded.\n        policy: ${policy}\n    effects:\n      - update: orders`;
    const known = miniWith(
      'tools.yaml',
      '    effects:\n      - update: orders',
      requires('refund-window'),
    );
    expect(runChecker(checkTools, known)).toEqual([]);
    const unknown = miniWith(
      'tools.yaml',
      '    effects:\n      - update: orders',
      requires('refund-windows'),
    );
    expect(runChecker(checkTools, unknown)).toEqual([
      'tools.yaml:25:17 "refund-windows" error unknown-policy: Unknown policy "refund-windows". Did you mean "refund-window"?',
    ]);
  });

  it('points at a required parameter that is not among the parameters', () => {
    const project = miniWith('tools.yaml', 'required: [order_id]', 'required: [order]');
    expect(runChecker(checkTools, project)).toEqual([
      'tools.yaml:21:18 "order" error unknown-parameter: "order" is required but not among the parameters (order_id, amount).',
    ]);
  });

  it('points at an effect on a table database.yaml does not define', () => {
    const project = miniWith('tools.yaml', 'select: users', 'select: user');
    expect(runChecker(checkTools, project)).toEqual([
      'tools.yaml:11:17 "user" error unknown-table: Unknown table "user". Did you mean "users"?',
    ]);
  });

  it('checks no table names against a database.yaml that could not be read', () => {
    const project = miniProject({
      'database.yaml': 'tables: [',
      'tools.yaml': MINI_FILES['tools.yaml'].replace('select: users', 'select: user'),
    });
    expect(runChecker(checkTools, project)).toEqual([]);
  });

  it('points at a column its table does not have', () => {
    const project = miniWith('tools.yaml', 'set: { status:', 'set: { state:');
    expect(runChecker(checkTools, project)).toEqual([
      `tools.yaml:25:23 "'\\"refunded\\"'" error unknown-column: Unknown column "state" in table "orders".`,
    ]);
  });

  it('warns about an update without "where"', () => {
    const project = miniWith('tools.yaml', '        where: row.id == args.order_id\n', '');
    expect(runChecker(checkTools, project)).toEqual([
      `tools.yaml:23:9 ${JSON.stringify(`update: orders\n${SET_STATUS}`)} warning missing-where: This update has no "where", so it would touch every row of "orders". Add a condition (use "where: true" if you mean all rows).`,
    ]);
  });

  it('points into a "where", a value and a "returns" at the CEL problem', () => {
    const where = miniWith(
      'tools.yaml',
      'where: row.id == args.user_id',
      'where: row.id = args.user_id',
    );
    expect(runChecker(checkTools, where)).toEqual([
      'tools.yaml:12:23 "=" error cel: CEL: Unexpected "=": to compare, write "==".',
    ]);
    const value = miniWith('tools.yaml', `status: '"refunded"'`, `status: 'row.status = 1'`);
    expect(runChecker(checkTools, value)).toEqual([
      'tools.yaml:25:36 "=" error cel: CEL: Unexpected "=": to compare, write "==".',
    ]);
    const returns = miniWith(
      'tools.yaml',
      SET_STATUS,
      `${SET_STATUS}    returns: args.order_id = 1\n`,
    );
    expect(runChecker(checkTools, returns)).toEqual([
      'tools.yaml:26:28 "=" error cel: CEL: Unexpected "=": to compare, write "==".',
    ]);
  });

  it('names a parameter pattern the linear matcher cannot run, at its line', () => {
    const project = miniWith(
      'tools.yaml',
      'user_id: { type: string }',
      "user_id: { type: string, pattern: '^(u)\\d+\\1' }",
    );
    const [found, ...rest] = runChecker(checkTools, project);
    expect(rest).toEqual([]);
    expect(found).toMatch(
      /^tools\.yaml:8:43 .* error unsupported-pattern: The pattern \/\^\(u\)\\d\+\\1\/ cannot be used: A backreference "\\1"/,
    );
  });
});
