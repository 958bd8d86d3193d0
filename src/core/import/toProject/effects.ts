import { celSelect } from '../../celVariables.ts';
import { compileCel, isCelProblem } from '../../cel.ts';
import type { PyStatement } from '../python/statements.ts';
import { readPythonModule } from '../python/module.ts';
import { splitTopLevel } from '../python/statements.ts';
import type { PyToken } from '../python/tokenize.ts';
import type { ConditionScope } from './pyCondition.ts';
import { celOfPython } from './pyCondition.ts';

/** An effect of tools.yaml, as plain data to write as YAML. */
export type Effect = Record<string, unknown>;

const MUTATING_CALLS = new Set([
  'append',
  'extend',
  'insert',
  'pop',
  'remove',
  'update',
  'clear',
  'setdefault',
]);

/**
 * A write tool's `effects:` read from its Python body, when every change the body makes follows
 * a simple pattern at the top level of the body (no loop or branch around it): a field of a row
 * the tool looked up by key set to an argument, a literal or an object built from them
 * (`order.status = "cancelled"`, `user.address = UserAddress(city=city, …)`), a number field
 * increased or decreased (`+=`, `-=`), or one item appended to a list field. Each becomes an
 * `update` of that row. Anything else the body changes makes the whole tool not carried (a
 * half-carried write would reach a wrong end state); the reason says what stopped it.
 */
export function effectsOf(
  body: string,
  scope: ConditionScope,
  firstLine = 1,
): { effects: Effect[] } | { reason: string } {
  const at = (line: number) => `line ${line + firstLine - 1}`;
  const fn = readPythonModule(body).functions[0];
  if (fn === undefined) return { reason: 'its body could not be read' };
  const effects: Effect[] = [];
  for (const statement of fn.body) {
    const nested = statement.body.flatMap(everyStatement).find(isMutation);
    if (nested !== undefined)
      return { reason: `it changes data inside a block (${at(nested.line)})` };
    if (!isMutation(statement)) continue;
    const effect = effectOf(statement.tokens, scope);
    if (typeof effect === 'string') return { reason: `${effect} (${at(statement.line)})` };
    const last = effects[effects.length - 1];
    if (last !== undefined && last.update === effect.update && last.where === effect.where)
      last.set = { ...(last.set as object), ...(effect.set as object) };
    else effects.push(effect);
  }
  return { effects };
}

function everyStatement(statement: PyStatement): PyStatement[] {
  return [statement, ...statement.body.flatMap(everyStatement)];
}

/** A statement that changes something outside its own local variables. */
function isMutation(statement: PyStatement): boolean {
  const tokens = statement.tokens;
  if (tokens[0]?.value === 'del') return true;
  const assign = tokens.findIndex(
    (t) => t.type === 'op' && ['=', '+=', '-=', '*=', '/='].includes(t.value),
  );
  if (assign > 0 && tokens.slice(0, assign).some((t) => t.value === '.' || t.value === '['))
    return true;
  return tokens.some(
    (t, i) =>
      t.value === '.' &&
      MUTATING_CALLS.has(tokens[i + 1]?.value ?? '') &&
      tokens[i + 2]?.value === '(',
  );
}

/** One change as an update effect, or why it is not one. */
function effectOf(tokens: readonly PyToken[], scope: ConditionScope): Effect | string {
  const [variable, dot, field, op] = tokens;
  const row = scope.rows.get(variable?.value ?? '');
  if (row === undefined || dot?.value !== '.' || field?.type !== 'name')
    return 'it changes something other than a field of a row it looked up by key';
  if (!row.columns.has(field.value))
    return `it changes "${field.value}", which is not a column of ${row.table}`;
  const where = `${celSelect('row', row.keyColumn)} == ${row.key}`;
  const rest = tokens.slice(4);
  let value: string | undefined;
  if (op?.value === '=') value = valueOf(rest, scope);
  else if (op?.value === '+=' || op?.value === '-=') {
    const amount = valueOf(rest, scope);
    value = amount && `${celSelect('row', field.value)} ${op.value[0] ?? '+'} ${amount}`;
  } else if (op?.value === '.' && tokens[4]?.value === 'append' && tokens[5]?.value === '(') {
    const item = valueOf(tokens.slice(6, -1), scope);
    value =
      item && tokens[tokens.length - 1]?.value === ')'
        ? `${celSelect('row', field.value)} + [${item}]`
        : undefined;
  } else return 'it changes a row in a way PolicyLab does not recognise';
  if (value === undefined || [value, where].some((cel) => isCelProblem(compileCel(cel))))
    return 'the value it writes does not read as CEL over the arguments';
  return { update: row.table, where, set: { [field.value]: value } };
}

/** An expression as CEL: what `celOfPython` reads, or `Model(field=value, …)` as a map. */
function valueOf(tokens: readonly PyToken[], scope: ConditionScope): string | undefined {
  const [callee, open] = tokens;
  const close = tokens[tokens.length - 1];
  if (
    callee?.type === 'name' &&
    /^[A-Z]/.test(callee.value) &&
    open?.value === '(' &&
    close?.value === ')'
  ) {
    const fields: string[] = [];
    for (const part of splitTopLevel(tokens.slice(2, -1), ',')) {
      if (part.length === 0) continue;
      const [name, equals] = part;
      if (name?.type !== 'name' || equals?.value !== '=') return undefined;
      const value = valueOf(part.slice(2), scope);
      if (value === undefined) return undefined;
      fields.push(`${JSON.stringify(name.value)}: ${value}`);
    }
    return `{${fields.join(', ')}}`;
  }
  const text = tokens
    .map((t) => (t.type === 'string' ? JSON.stringify(t.value) : t.value))
    .join(' ');
  return tokens.some((t) => t.fstring === true) ? undefined : celOfPython(text, scope);
}
