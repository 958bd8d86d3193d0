import { chargeCel } from './celMeter.ts';

/*
 * A look-up by a field's value in a list of rows (`db.orders.exists(r, r.order_id == args.id)`,
 * `db.orders.filter(r, r.order_id == args.id)`) is how imported tools find a row; interpreted,
 * each row costs a handful of AST steps, and an imported domain's gold runs make thousands of
 * them. Where the other side of `==` does not read the row and gives text, the rows are compared
 * in one loop instead. Anything else (a row without the field, a field that is not text, a list
 * that is not rows) runs the macro as written, so the answer and its errors are CEL's.
 */

interface Node {
  readonly op: string;
  readonly args: unknown;
  /** What a macro call runs: its expansion (`alternate`) or its own evaluation (`macro`). */
  readonly meta?: { readonly alternate?: Node; readonly macro?: Node };
  evaluate: (ev: Evaluator, ast: Node, ctx: unknown) => unknown;
}

interface Evaluator {
  run(ast: Node, ctx: unknown): unknown;
}

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { op?: unknown }).op === 'string' &&
  'args' in value;

/**
 * Whether `node` reads the identifier `name`; a macro inside that binds the same name
 * (`db.orders.filter(r, …)` within a look-up over `r`) reads it only in its receiver.
 */
function reads(node: unknown, name: string): boolean {
  if (Array.isArray(node)) return node.some((n) => reads(n, name));
  if (!isNode(node)) return false;
  if (node.op === 'id') return node.args === name;
  if (node.op === 'rcall' && Array.isArray(node.args)) {
    const [, receiver, macroArgs] = node.args as [unknown, unknown, unknown];
    const bound = Array.isArray(macroArgs) ? (macroArgs as unknown[])[0] : undefined;
    if (isNode(bound) && bound.op === 'id' && bound.args === name && expansion(node))
      return reads(receiver, name);
  }
  return reads(node.args, name);
}

/** What a macro call node runs, if it is one. */
const expansion = (node: Node): Node | undefined => node.meta?.alternate ?? node.meta?.macro;

/** `v.field` for the iteration variable `v`: the field's name, else undefined. */
function fieldOf(node: unknown, variable: string): string | undefined {
  if (!isNode(node) || node.op !== '.' || !Array.isArray(node.args)) return undefined;
  const [target, field] = node.args as [unknown, unknown];
  return isNode(target) &&
    target.op === 'id' &&
    target.args === variable &&
    typeof field === 'string'
    ? field
    : undefined;
}

/** Rows whose `field` is text equal to `key`; undefined when any item is not such a row. */
function matching(list: unknown, field: string, key: string): unknown[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const out: unknown[] = [];
  for (const row of list as unknown[]) {
    if (typeof row !== 'object' || row === null || Array.isArray(row) || row instanceof Map)
      return undefined;
    if (!Object.hasOwn(row, field)) return undefined;
    const value = (row as Record<string, unknown>)[field];
    if (typeof value !== 'string') return undefined;
    if (value === key) out.push(row);
  }
  return out;
}

/** Gives each keyed `exists`/`filter` of a parsed expression the one-loop evaluation. */
export function useKeyedLookups(ast: unknown): void {
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (!isNode(value) || value.op === 'value') return;
    visit(value.args);
    if (value.op !== 'rcall' || !Array.isArray(value.args)) return;
    const [name, receiver, macroArgs] = value.args as [unknown, unknown, unknown];
    if ((name !== 'exists' && name !== 'filter') || !isNode(receiver)) return;
    if (!Array.isArray(macroArgs) || macroArgs.length !== 2) return;
    const [variableNode, predicate] = macroArgs as [unknown, unknown];
    const macro = expansion(value);
    if (!isNode(variableNode) || variableNode.op !== 'id' || macro === undefined) return;
    const variable = variableNode.args;
    if (typeof variable !== 'string' || !isNode(predicate) || predicate.op !== '==') return;
    const [left, right] = predicate.args as [unknown, unknown];
    const onLeft = fieldOf(left, variable);
    const field = onLeft ?? fieldOf(right, variable);
    const other = onLeft === undefined ? left : right;
    if (field === undefined || !isNode(other) || reads(other, variable)) return;
    const asWritten = (ev: Evaluator, ctx: unknown) => macro.evaluate(ev, macro, ctx);
    value.evaluate = (ev, _ast, ctx) => {
      const list = ev.run(receiver, ctx);
      const key = ev.run(other, ctx);
      const rows = typeof key === 'string' ? matching(list, field, key) : undefined;
      if (rows === undefined) return asWritten(ev, ctx);
      // What the macro would have charged: a few steps per row.
      chargeCel(4 * (list as unknown[]).length);
      return name === 'exists' ? rows.length > 0 : rows;
    };
  };
  visit(ast);
}
