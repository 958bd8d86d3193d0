import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BAKERY_FILES, bakeryProject } from '../../testing/bakeryProject.ts';
import { miniProject } from '../../testing/miniProject.ts';
import { parseProject } from '../parseProject.ts';
import { exampleProjects, runChecker, shown } from './checkerFixtures.ts';
import { checkStructuredData } from './structuredData.ts';
import { checkTables } from './tables.ts';
import { checkTools } from './tools.ts';

const examples = exampleProjects((path) => readFileSync(path, 'utf8'));
const TOOLS = BAKERY_FILES['tools.yaml'] ?? '';
const DATABASE = BAKERY_FILES['database.yaml'] ?? '';

function withTools(from: string, to: string) {
  return bakeryProject({ 'tools.yaml': TOOLS.replace(from, to) });
}

function withDatabase(from: string, to: string) {
  return bakeryProject({ 'database.yaml': DATABASE.replace(from, to) });
}

/** Every diagnostic `check` shows for the project (schema, references, lint). */
function allFindings(project: ReturnType<typeof bakeryProject>): string[] {
  return parseProject(project).diagnostics.map((d) => shown(d, project));
}

describe('checkStructuredData', () => {
  it('finds nothing in the bakery, the mini project and the examples', () => {
    for (const project of [bakeryProject(), miniProject(), ...examples])
      expect(runChecker(checkStructuredData, project), project.name).toEqual([]);
    expect(allFindings(bakeryProject())).toEqual([]);
  });

  it('an insert that leaves out a column every row needs is an error at check time', () => {
    const project = withTools('          status: \'"pending"\'\n', '');
    expect(runChecker(checkStructuredData, project)).toEqual([
      'tools.yaml:21:17 "orders" error missing-column: This insert into "orders" gives no value for "status", which is not nullable, so every call would fail. Add it under "values" (or make it nullable or generated).',
    ]);
  });

  it('a generated or nullable column may be left out; without generated: the id is missing', () => {
    const project = withDatabase(
      "id: { type: string, generated: { prefix: '#B', digits: 4 } }",
      'id: { type: string }',
    );
    expect(
      runChecker(checkStructuredData, project).map((d) => d.split(': ').slice(1).join(': ')),
    ).toEqual([
      'This insert into "orders" gives no value for "id", which is not nullable, so every call would fail. Add it under "values" (or make it nullable or generated).',
    ]);
  });

  it('points at a schema that cannot be used, a schema on a scalar column, and generated on a list', () => {
    const project = bakeryProject({
      'database.yaml': DATABASE.replace(
        'orders: { type: array, schema: { type: array, items: { type: string } } }',
        'orders: { type: array, schema: { type: lists } }',
      )
        .replace(
          '      name: { type: string }\n      address:',
          '      name: { type: string, schema: { type: string } }\n      address:',
        )
        .replace('      total: { type: number }', '      total: { type: number, generated: true }'),
    });
    expect(runChecker(checkStructuredData, project)).toEqual([
      'database.yaml:6:37 "{ type: string }" warning schema-unused: "name" is a string column, so its schema is never read; a schema describes an array or object column.',
      'database.yaml:16:38 "{ type: lists }" error bad-schema: The schema of "orders" is not a JSON Schema that can be used: its type must be equal to one of the allowed values.',
      'database.yaml:38:41 "true" error bad-generated: "total" is a number column; only string and integer columns can be generated.',
    ]);
  });

  it('an item named like a variable an effect already has is an error; "as" without "for_each" a warning', () => {
    expect(runChecker(checkStructuredData, withTools('as: line', 'as: row'))).toEqual([
      expect.stringContaining('error bad-as: "row" already means something in an effect'),
    ]);
    const project = withTools(
      '      - insert: notes\n',
      '      - insert: notes\n        as: note\n',
    );
    expect(runChecker(checkStructuredData, project)).toEqual([
      'tools.yaml:35:13 "note" warning unused-as: "as" names the item of a "for_each", and this effect has none.',
    ]);
  });

  it('an effect\'s CEL knows its item by the name "as" gives it, and only inside that effect', () => {
    const project = withTools('name: line.name', 'name: item.name');
    expect(runChecker(checkTools, project)).toEqual([
      'tools.yaml:32:17 "item.name" error cel: CEL: Unknown variable "item". Here you can use: args, db, row, now, inserted, line.',
    ]);
    const outside = withTools('text: args.note', 'text: item.name');
    expect(runChecker(checkTools, outside)).toEqual([
      expect.stringContaining(
        'Unknown variable "item". Here you can use: args, db, row, now, inserted.',
      ),
    ]);
  });

  it('points at a seed row whose structured value breaks its schema, inside the value', () => {
    const project = withDatabase(
      'items: [{ name: rye loaf, price: 4.5, quantity: 2 }]',
      'items: [{ name: rye loaf, price: 4.5 }]',
    );
    expect(runChecker(checkTables, project)).toEqual([
      'database.yaml:43:16 "[{ name: rye loaf, price: 4.5 }]" error bad-row: "items" does not fit its schema: "items[0]" lacks "quantity".',
    ]);
    const address = withDatabase(
      'address: { street: 1 Mill Lane, city: Leeds }',
      'address: [1 Mill Lane]',
    );
    expect(runChecker(checkTables, address)).toEqual([
      'database.yaml:20:18 "[1 Mill Lane]" error bad-row: "address" must be a mapping (key: value), not ["1 Mill Lane"].',
    ]);
    const text = withDatabase(
      'address: { street: 1 Mill Lane, city: Leeds }',
      'address: 1 Mill Lane',
    ).files['database.yaml'].replace("orders: ['#B0001']", 'orders: { first: "#B0001" }');
    expect(runChecker(checkTables, bakeryProject({ 'database.yaml': text }))).toEqual([
      'database.yaml:20:18 "1 Mill Lane" error bad-row: "address" must be a mapping (key: value), not "1 Mill Lane".',
      'database.yaml:21:17 "{ first: \\"#B0001\\" }" error bad-row: "orders" must be a list, not {"first":"#B0001"}.',
    ]);
  });
});
