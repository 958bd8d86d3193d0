import type { CelContext } from '../../celVariables.ts';
import type { Diagnostic } from '../../diagnostics.ts';
import { argumentMisuse } from '../../rules/argumentTypes.ts';
import type { JsonSchemaObject } from '../model.ts';
import type { YamlPath } from '../yamlFile.ts';
import type { ReferenceContext } from './context.ts';
import { Findings } from './context.ts';

/**
 * tools.yaml's preconditions are valid CEL, and no condition uses a tool argument against the
 * type its parameter schema declares (`args.amount + "x"` with `amount: {type: integer}`): a
 * guard rule's `when`, a precondition, an effect's `where` and values, a tool's `returns`.
 */
export function checkArgumentTypes(context: ReferenceContext): Diagnostic[] {
  const found = new Findings(context);
  const misuse = (
    file: 'tools.yaml' | 'rules.yaml',
    path: YamlPath,
    what: string,
    source: string,
    celContext: CelContext,
    parameters: JsonSchemaObject,
  ) => {
    const wrong = argumentMisuse(source, celContext, parameters);
    if (wrong)
      found.report(
        file,
        path,
        'argument-type',
        `${what} uses ${wrong.arguments.length === 1 ? 'an argument' : 'arguments'} against ${wrong.arguments.length === 1 ? 'its' : 'their'} declared type: ${wrong.message}`,
      );
  };
  for (const tool of context.model.tools) {
    (tool.requires ?? []).forEach((pre, i) => {
      const at = [...pre.path, 'condition'];
      found.condition('tools.yaml', at, pre.condition, 'returns');
      const what = `Precondition ${i + 1} of "${tool.name}"`;
      misuse('tools.yaml', at, what, pre.condition, 'returns', tool.parameters);
    });
    tool.effects.forEach((effect, i) => {
      const what = `Effect ${i + 1} of "${tool.name}"`;
      if (effect.where !== undefined)
        misuse(
          'tools.yaml',
          [...effect.path, 'where'],
          what,
          effect.where,
          'effect',
          tool.parameters,
        );
      const field = effect.op === 'insert' ? 'values' : 'set';
      for (const [column, source] of Object.entries(effect.columns))
        misuse(
          'tools.yaml',
          [...effect.path, field, column],
          what,
          source,
          'effect',
          tool.parameters,
        );
    });
    if (tool.returns !== undefined)
      misuse(
        'tools.yaml',
        [...tool.path, 'returns'],
        `The "returns" of "${tool.name}"`,
        tool.returns,
        'returns',
        tool.parameters,
      );
  }
  for (const guards of context.model.guards) {
    const tool = context.model.tools.find((t) => t.name === guards.tool);
    if (!tool) continue;
    for (const rule of guards.rules) {
      if (rule.when === undefined) continue;
      const what = `Rule "${rule.id}" (${guards.tool})`;
      misuse('rules.yaml', [...rule.path, 'when'], what, rule.when, 'guard', tool.parameters);
    }
  }
  return found.diagnostics;
}
