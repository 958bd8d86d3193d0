import type { Findings, ReferenceContext } from './context.ts';
import { unknownName } from './context.ts';
import type { YamlPath } from '../yamlFile.ts';
import { valueAt } from '../yamlFile.ts';

/**
 * A required action's `args:` and `compare_args:` (scenarios.yaml) held to its tool's declared
 * parameters: an argument or compared name the tool does not declare is warned about, since no
 * call of the tool could give it as the scenario expects. `at` is where the action's tool name is
 * written; nothing is said of a tool that declares no parameters or that tools.yaml lacks (its
 * own diagnostic says so).
 */
export function checkActionArgs(
  found: Findings,
  context: ReferenceContext,
  at: YamlPath,
  tool: string,
): void {
  if (at.at(-1) !== 'tool') return;
  const item = at.slice(0, -1);
  const declared = context.model.tools.find((t) => t.name === tool)?.parameters.properties;
  if (!declared || Object.keys(declared).length === 0) return;
  const raw = valueAt(context.files['scenarios.yaml'].value, item);
  if (typeof raw !== 'object' || raw === null) return;
  const { args, compare_args: compare } = raw as Record<string, unknown>;
  const known = Object.keys(declared);
  const warn = (path: YamlPath, name: string, what: string) => {
    found.report(
      'scenarios.yaml',
      path,
      'unknown-argument',
      `${unknownName(`argument of ${tool}`, name, known)} ${what} Its parameters: ${known.join(', ')}.`,
      'warning',
    );
  };
  if (typeof args === 'object' && args !== null && !Array.isArray(args))
    for (const name of Object.keys(args))
      if (!Object.hasOwn(declared, name))
        warn(
          [...item, 'args', name],
          name,
          'No call could give it, so this action can never match.',
        );
  if (Array.isArray(compare))
    compare.forEach((name: unknown, i) => {
      if (typeof name === 'string' && !Object.hasOwn(declared, name))
        warn(
          [...item, 'compare_args', i],
          name,
          'No call gives it, so comparing it checks nothing.',
        );
    });
}
