import type { ProjectModel, Tool } from '../format/model.ts';
import { argumentErrors } from '../sim/toolArguments.ts';

/** A call PolicyLab made up to show what a draft decides, and how it was made. */
export interface OwnExample {
  readonly args: Readonly<Record<string, unknown>>;
  readonly why: string;
}

/** How many calls PolicyLab adds to a draft's own examples. */
export const OWN_EXAMPLES_LIMIT = 12;

type Schema = Readonly<Record<string, unknown>>;

/**
 * Calls made from the tool's schema, each changing one argument of `base` (the draft's first
 * call it must allow): for numbers, the schema's minimum and maximum and each number the
 * condition names with its neighbours; every value of an enum; both booleans; for a text
 * argument, the text literals of the condition and the keys of the table it seems to name
 * (`member_id`: the members' ids). Only calls that fit the schema are kept, at most
 * `OWN_EXAMPLES_LIMIT`, in a fixed order.
 */
export function ownExamples(
  tool: Tool,
  when: string,
  base: Readonly<Record<string, unknown>>,
  model: ProjectModel,
): OwnExample[] {
  const made: OwnExample[] = [];
  const seen = new Set<string>();
  for (const [name, schema] of Object.entries(tool.parameters.properties ?? {})) {
    for (const [value, why] of candidates(name, schema, when, model)) {
      if (Object.is(base[name], value)) continue;
      const args = { ...base, [name]: value };
      const key = JSON.stringify(args);
      if (seen.has(key) || argumentErrors(tool, args).length > 0) continue;
      seen.add(key);
      made.push({ args, why: `${name} = ${JSON.stringify(value)} (${why})` });
    }
  }
  return made.slice(0, OWN_EXAMPLES_LIMIT);
}

function candidates(
  name: string,
  schema: Schema,
  when: string,
  model: ProjectModel,
): [unknown, string][] {
  if (Array.isArray(schema.enum)) return schema.enum.map((v: unknown) => [v, 'one of its values']);
  switch (schema.type) {
    case 'integer':
    case 'number': {
      const step = schema.type === 'integer' ? 1 : 0.5;
      const out: [unknown, string][] = [];
      if (typeof schema.minimum === 'number') out.push([schema.minimum, 'its minimum']);
      if (typeof schema.maximum === 'number') out.push([schema.maximum, 'its maximum']);
      for (const n of numbersIn(when)) {
        out.push([n - step, `just under ${n}, named in the condition`]);
        out.push([n, 'a number in the condition']);
        out.push([n + step, `just over ${n}, named in the condition`]);
      }
      return out.filter(([v]) => schema.type === 'number' || Number.isInteger(v));
    }
    case 'boolean':
      return [
        [true, 'true'],
        [false, 'false'],
      ];
    case 'string': {
      const texts: [unknown, string][] = textsIn(when).map((t) => [t, 'a text in the condition']);
      return [
        ...texts,
        ...keysFor(name, model).map((k): [unknown, string] => [k, 'a row that exists']),
      ];
    }
    default:
      return [];
  }
}

/** Numbers written in a condition (outside strings). */
function numbersIn(when: string): number[] {
  const bare = when.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
  const found = [...bare.matchAll(/(?<![\w.])(\d+(?:\.\d+)?)(?![\w.])/g)].map((m) => Number(m[1]));
  return [...new Set(found)].slice(0, 3);
}

/** Text literals written in a condition. */
function textsIn(when: string): string[] {
  const found = [...when.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g)].map(
    (m) => m[1] ?? m[2] ?? '',
  );
  return [...new Set(found)].slice(0, 3);
}

/** Keys of the table an argument seems to name: `member_id` names `members` (or `member`). */
function keysFor(name: string, model: ProjectModel): unknown[] {
  const stem = /^(\w+?)_?id$/.exec(name)?.[1];
  if (stem === undefined || stem === '') return [];
  const table = model.tables.find((t) => t.name === stem || t.name === `${stem}s`);
  if (!table) return [];
  return [...new Set(table.rows.map((row) => row[table.key]))].slice(0, 3);
}
