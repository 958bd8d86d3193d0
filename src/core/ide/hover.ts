import type { ProjectModel } from '../format/model.ts';
import { typeLabel } from './completion.ts';
import type { SymbolName } from './symbols.ts';

/** Markdown shown when the pointer rests on a policy id, a tool name or a table name. */
export function hoverText(model: ProjectModel, symbol: SymbolName): string | undefined {
  if (symbol.kind === 'policy') {
    const policy = model.policies.find((p) => p.id === symbol.name);
    if (!policy) return undefined;
    const tools =
      policy.tools.length > 0 ? `\n\nTools: ${policy.tools.map((t) => `\`${t}\``).join(', ')}` : '';
    return `**${policy.id}** · ${policy.category} · challenge ${policy.challenge}/5\n\n${policy.text}${tools}`;
  }
  if (symbol.kind === 'tool') {
    const tool = model.tools.find((t) => t.name === symbol.name);
    if (!tool) return undefined;
    const required = new Set(tool.parameters.required ?? []);
    const params = Object.entries(tool.parameters.properties ?? {}).map(
      ([name, spec]) =>
        `- \`${name}\`${required.has(name) ? '' : '?'}: ${typeLabel(spec.type)}${typeof spec.description === 'string' ? ` (${spec.description})` : ''}`,
    );
    const requires = (tool.requires ?? []).map((p) => `- \`${p.condition}\`, else: ${p.error}`);
    return `**${tool.name}** · ${tool.kind} tool\n\n${tool.description}${params.length > 0 ? `\n\nParameters:\n${params.join('\n')}` : ''}${requires.length > 0 ? `\n\nRequires:\n${requires.join('\n')}` : ''}`;
  }
  const table = model.tables.find((t) => t.name === symbol.name);
  if (!table) return undefined;
  const columns = table.columns.map(
    (c) =>
      `- \`${c.name}\`: ${c.type}${c.nullable ? ' or null' : ''}${c.name === table.key ? ' (key)' : ''}`,
  );
  return `**${table.name}** · table · ${table.rows.length} rows\n\n${columns.join('\n')}`;
}
