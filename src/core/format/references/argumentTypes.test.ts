import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { projectFromFiles } from '../../bundle.ts';
import { PROJECT_FILES } from '../../project.ts';
import { argumentMisuse } from '../../rules/argumentTypes.ts';
import { ticketDesk, ticketDeskWith } from '../../testing/ticketDesk.ts';
import type { JsonSchemaObject } from '../model.ts';
import { parseProject } from '../parseProject.ts';

const PARAMETERS: JsonSchemaObject = {
  type: 'object',
  properties: {
    amount: { type: 'integer' },
    price: { type: 'number' },
    code: { type: 'string' },
    urgent: { type: 'boolean' },
    seats: { type: 'array', items: { type: 'integer' } },
  },
};

const misuse = (source: string) => argumentMisuse(source, 'guard', PARAMETERS);

const argumentDiagnostics = (project: ReturnType<typeof ticketDesk>) =>
  parseProject(project).diagnostics.filter((d) => d.code === 'argument-type');

describe('argumentMisuse', () => {
  it.each([
    ['args.amount + "x"', 'amount', 'integer'],
    ['args.code == 5', 'code', 'string'],
    ['args.code > 10', 'code', 'string'],
    ['args.amount * 1.5 > 10.0', 'amount', 'integer'],
    ['args.urgent == "yes"', 'urgent', 'boolean'],
    ['now > args.code', 'code', 'string'],
    ['args.seats.exists(s, s == "1A")', 'seats', 'a list of integer'],
    // An undeclared argument read first does not hide the misuse after it.
    ['args.note == "x" || args.amount + "x" == "1x"', 'amount', 'integer'],
  ])('reports %s, naming the argument and its declared type', (source, name, declared) => {
    const found = misuse(source);
    expect(found?.arguments).toEqual([{ name, declared }]);
    expect(found?.message).toContain(`"args.${name}" is declared ${declared}`);
  });

  it.each([
    'args.amount % 50 == 0',
    'args.amount > 100',
    'args.amount > 99.5',
    'args.amount == 100.0',
    'args.price > 10',
    'args.price == 10',
    'double(args.amount) * 1.5 > 10.0',
    'args.code == "ABC"',
    'has(args.code) && args.code.startsWith("A")',
    'args.undeclared + 1 > 2',
    'args.code == null',
    'size(args) > 0',
    'db.orders.exists(o, o.id == args.code && o.total > args.amount)',
    'args.seats.all(s, s % 2 == 0)',
  ])('lets %s pass: it runs as meant', (source) => {
    expect(misuse(source)).toBeUndefined();
  });

  it('leaves invalid CEL to the CEL check', () => {
    expect(misuse('args.amount + ')).toBeUndefined();
    expect(misuse('arg.amount + "x"')).toBeUndefined();
  });
});

describe('check reports arguments used against their type', () => {
  it('says nothing on a project that uses its arguments as declared', () => {
    expect(argumentDiagnostics(ticketDesk())).toEqual([]);
  });

  it('reports a guard rule, with the rule and the argument', () => {
    const found = argumentDiagnostics(
      ticketDeskWith(
        'rules.yaml',
        'when: args.amount % 50 != 0',
        'when: args.amount + "x" != "0x"',
      ),
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ file: 'rules.yaml', line: 7, severity: 'error' });
    expect(found[0]?.message).toMatch(
      /^Rule "steps-of-fifty" \(refund\) uses an argument against its declared type: "args\.amount" is declared integer/,
    );
  });

  it('reports a precondition, an effect and a returns too', () => {
    const tools = ticketDesk()
      .files['tools.yaml'].replace(
        "o.id == args.order_id)'",
        "o.id == args.order_id && args.order_id > 3)'",
      )
      .replace('int(row.refunded) + args.amount', 'row.refunded + args.amount * 0.5')
      .replace('args.amount % 50 == 0 ?', 'args.amount == "50" ?');
    const found = argumentDiagnostics(ticketDesk({ 'tools.yaml': tools }));
    expect(found.map((d) => d.message.split(':')[0])).toEqual([
      'Precondition 1 of "cancel_order" uses an argument against its declared type',
      'Effect 1 of "refund" uses an argument against its declared type',
      'The "returns" of "refund" uses an argument against its declared type',
    ]);
  });

  it('finds nothing in the example projects', () => {
    for (const example of ['airline', 'store']) {
      const files = Object.fromEntries(
        PROJECT_FILES.map((f) => [
          f.name,
          readFileSync(`public/examples/${example}/${f.name}`, 'utf8'),
        ]),
      );
      const parsed = parseProject(projectFromFiles(example, files).project);
      expect(parsed.diagnostics.filter((d) => d.code === 'argument-type')).toEqual([]);
    }
  });
});
