import type { ImportNote, ImportedPrecondition, ImportedTool, JsonSchema } from './domain.ts';
import { readAnnotation } from './python/annotation.ts';
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
): { tools: ImportedTool[]; notes: ImportNote[] } {
  const tools: ImportedTool[] = [];
  const notes: ImportNote[] = [];
  for (const owner of module.classes) {
    const helpers = new Map(owner.methods.map((m) => [m.name, m]));
    for (const method of owner.methods) {
      const decorator = method.decorators
        .map((d) => TOOL_DECORATOR.exec(d))
        .find((m) => m !== null);
      if (decorator === undefined) continue;
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
  return { tools, notes };
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
    properties[param.name] = description ? { ...schema, description } : schema;
    if (param.default === undefined) required.push(param.name);
  }
  return {
    name: method.name,
    description: doc.description || `${method.name} (from ${owner.name})`,
    kind,
    parameters: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
    preconditions: preconditionsOf(method, helpers, file),
    body: method.text,
    place: { file, line: method.line },
  };
}

/** The method's raises, then those of each `self._helper(` it calls (once each, in order). */
function preconditionsOf(
  method: PyFunction,
  helpers: ReadonlyMap<string, PyFunction>,
  file: string,
  seen: Set<string> = new Set(),
): ImportedPrecondition[] {
  seen.add(method.name);
  const own = method.raises.map((r) => ({
    ...(r.condition !== undefined ? { condition: r.condition } : {}),
    message: r.message,
    place: { file, line: r.line },
  }));
  const called = [...method.text.matchAll(/self\.(\w+)\s*\(/g)].map((m) => m[1] ?? '');
  const inherited: ImportedPrecondition[] = [];
  for (const name of called) {
    const helper = helpers.get(name);
    if (helper === undefined || seen.has(name)) continue;
    inherited.push(...preconditionsOf(helper, helpers, file, seen));
  }
  return [...own, ...inherited];
}
