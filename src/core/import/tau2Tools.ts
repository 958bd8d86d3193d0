import type { ImportNote, ImportedPrecondition, ImportedTool, JsonSchema } from './domain.ts';
import { readAnnotation } from './python/annotation.ts';
import { isNotLiteral, literalOfText } from './python/literal.ts';
import { readDocstring } from './python/docstring.ts';
import type { PyClass, PyFunction, PyModule } from './python/module.ts';
import type { TypeScope } from './python/schemaOf.ts';
import { schemaOf } from './python/schemaOf.ts';

const TOOL_DECORATOR = /^is_tool\s*\(\s*(?:ToolType\.)?(\w+)/;
const KINDS: Readonly<Record<string, ImportedTool['kind']>> = {
  READ: 'read',
  WRITE: 'write',
  GENERIC: 'generic',
  THINK: 'think',
};

/**
 * The tools of a tau2 `tools.py`: every method decorated `@is_tool(ToolType.X)`, with its
 * docstring as description, its signature as a JSON Schema (types from the annotations,
 * descriptions from the docstring's Args) and its `raise`s (and those of the `self._helpers` it
 * calls) as preconditions.
 */
export function tau2Tools(
  module: PyModule,
  scope: TypeScope,
  file: string,
): { tools: ImportedTool[]; functions: ImportedTool[]; notes: ImportNote[] } {
  const tools: ImportedTool[] = [];
  const functions: ImportedTool[] = [];
  const notes: ImportNote[] = [];
  for (const owner of module.classes) {
    const helpers = new Map(owner.methods.map((m) => [m.name, m]));
    for (const method of owner.methods) {
      const decorator = method.decorators
        .map((d) => TOOL_DECORATOR.exec(d))
        .find((m) => m !== null);
      // A public method that is not a tool may still be called by a task's setup (tau2's
      // initialization actions): kept as a write, read only when a task names it.
      if (decorator === undefined) {
        if (!method.name.startsWith('_') && method.decorators.length === 0)
          functions.push(toolOf(method, 'write', owner, helpers, scope, file, []));
        continue;
      }
      const kind = KINDS[decorator[1] ?? ''];
      if (kind === undefined) {
        notes.push({
          item: `tool ${method.name}`,
          message: `Its ToolType "${decorator[1] ?? ''}" is not one PolicyLab knows; read as generic.`,
          place: { file, line: method.line },
        });
      }
      tools.push(toolOf(method, kind ?? 'generic', owner, helpers, scope, file, notes));
    }
  }
  if (tools.length === 0)
    notes.push({
      item: file,
      message: 'No method decorated @is_tool(...) was found.',
      place: { file },
    });
  return { tools, functions, notes };
}

function toolOf(
  method: PyFunction,
  kind: ImportedTool['kind'],
  owner: PyClass,
  helpers: ReadonlyMap<string, PyFunction>,
  scope: TypeScope,
  file: string,
  notes: ImportNote[],
): ImportedTool {
  const doc = readDocstring(method.docstring ?? '');
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const param of method.params) {
    if (param.name === 'self' || param.name === 'cls') continue;
    if (param.kind !== 'plain') {
      notes.push({
        item: `tool ${method.name}, argument ${param.name}`,
        message: 'A *args or **kwargs argument has no JSON Schema; left out.',
        place: { file, line: method.line },
      });
      continue;
    }
    const unknown = new Set<string>();
    const schema =
      param.annotation === undefined
        ? {}
        : schemaOf(readAnnotation(param.annotation), scope, unknown);
    for (const u of unknown)
      notes.push({
        item: `tool ${method.name}, argument ${param.name}`,
        message: `The type "${u}" could not be resolved; the argument accepts any value.`,
        place: { file, line: method.line },
      });
    const description = doc.args.get(param.name);
    // A literal default is the value a call that leaves the argument out runs with; None is
    // written `default: null`, which leaves the argument out (the tool's code reads it as null).
    const literal = param.default === undefined ? undefined : literalOfText(param.default);
    const fallback = literal === undefined || isNotLiteral(literal) ? {} : { default: literal };
    properties[param.name] = { ...schema, ...(description && { description }), ...fallback };
    if (param.default === undefined) required.push(param.name);
  }
  return {
    name: method.name,
    description: doc.description || `${method.name} (from ${owner.name})`,
    kind,
    parameters: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
    preconditions: preconditionsOf(method, helpers, file),
    body: method.text,
    // Every other method may be called as a helper, a public tool included.
    helpers: Object.fromEntries(
      [...helpers.values()]
        .filter((m) => !m.name.startsWith('__') && m.name !== method.name)
        .map((m) => [m.name, m.text]),
    ),
    ...attributesOf(owner),
    place: { file, line: method.line },
  };
}

/** A class's attributes written with a value (`name: T = value`, `NAME = value`), as source. */
function attributesOf(owner: PyClass): { attributes?: Record<string, string> } {
  const attributes: Record<string, string> = {};
  for (const f of owner.fields) if (f.default !== undefined) attributes[f.name] = f.default;
  for (const m of owner.members) attributes[m.name] = m.value;
  return Object.keys(attributes).length > 0 ? { attributes } : {};
}

/**
 * The method's raises and those of each `self._helper(` it calls (once each), in the order the
 * body reaches them. A helper's conditions are rewritten in the caller's terms: its parameters
 * replaced by the call's arguments (`user_id not in self.db.users` called as
 * `self._get_user(order.user_id)` reads `order.user_id not in self.db.users`).
 */
function preconditionsOf(
  method: PyFunction,
  helpers: ReadonlyMap<string, PyFunction>,
  file: string,
  seen: Set<string> = new Set(),
): ImportedPrecondition[] {
  seen.add(method.name);
  const placed: Array<{ at: number; precondition: ImportedPrecondition }> = method.raises.map(
    (r) => ({
      at: r.line,
      precondition: {
        ...(r.condition !== undefined ? { condition: r.condition } : {}),
        message: r.message,
        place: { file, line: r.line },
        ...(r.direct === true ? { direct: true } : {}),
      },
    }),
  );
  for (const call of method.text.matchAll(/self\.(\w+)\s*\(/g)) {
    const name = call[1] ?? '';
    const helper = helpers.get(name);
    if (helper === undefined || seen.has(name)) continue;
    const at = method.line + method.text.slice(0, call.index).split('\n').length - 1;
    const args = callArguments(method.text, call.index + call[0].length);
    const params = helper.params.filter((p) => p.name !== 'self' && p.kind === 'plain');
    const bound = new Map<string, string | undefined>(params.map((p, i) => [p.name, args[i]]));
    // The helper's own variables mean nothing in the caller: a condition on one is not rewritten.
    for (const local of helper.text.matchAll(/^\s*([A-Za-z_]\w*)\s*=[^=]/gm))
      if (!bound.has(local[1] ?? '')) bound.set(local[1] ?? '', undefined);
    for (const inner of preconditionsOf(helper, helpers, file, seen)) {
      const condition =
        inner.condition === undefined ? undefined : substitute(inner.condition, bound);
      placed.push({
        at,
        precondition: {
          ...inner,
          // A condition that cannot be rewritten keeps the helper's words, for the report only.
          ...(condition === undefined && inner.condition !== undefined
            ? { direct: false }
            : { ...(condition !== undefined ? { condition } : {}) }),
          via: inner.via ?? name,
        },
      });
    }
  }
  return placed.sort((a, b) => a.at - b.at).map((p) => p.precondition);
}

/** The top-level arguments of a call whose `(` ends just before `from`, as source text. */
function callArguments(text: string, from: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let start = from;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
    else if (c === ')' || (c === ',' && depth === 0)) {
      const arg = text.slice(start, i).trim();
      if (arg !== '') args.push(arg);
      start = i + 1;
      if (c === ')') break;
    }
  }
  return args;
}

/**
 * A condition with each bound name replaced by its argument (parenthesised when it is not a
 * plain dotted name); undefined when a name is bound to nothing, or to a keyword argument.
 */
function substitute(
  condition: string,
  bound: ReadonlyMap<string, string | undefined>,
): string | undefined {
  const unbound: string[] = [];
  const out = condition.replace(/(?<![.\w])([A-Za-z_]\w*)\b/g, (name: string) => {
    if (!bound.has(name)) return name;
    const arg = bound.get(name);
    if (arg === undefined || /^\w+\s*=[^=]/.test(arg)) {
      unbound.push(name);
      return name;
    }
    return /^[\w.]+$/.test(arg) ? arg : `(${arg})`;
  });
  return unbound.length > 0 ? undefined : out;
}
