import type { ProjectModel } from '../format/model.ts';
import { CHECK_KIND_HELP, CHECK_KINDS } from '../format/schemas.ts';
import { typeLabel } from './completion.ts';
import { wordAt } from './symbols.ts';
import type { SymbolName } from './symbols.ts';

/**
 * A file's words as Markdown that shows them as written, on one line: every ASCII punctuation
 * mark is escaped, so a policy's text cannot draw an image (which the editor would fetch), a
 * link, a heading or HTML, a bare address is no autolink (its `:` and `/` are escaped), and
 * white space is one space, so no indentation makes a code block.
 */
export function plainMarkdown(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/** A name as inline code, or as plain text when a backtick in it would end the code span. */
function code(name: string): string {
  return /[`\r\n]/.test(name) ? plainMarkdown(name) : `\`${name}\``;
}

/** Markdown shown when the pointer rests on a policy id, a tool name or a table name. */
export function hoverText(model: ProjectModel, symbol: SymbolName): string | undefined {
  if (symbol.kind === 'policy') {
    const policy = model.policies.find((p) => p.id === symbol.name);
    if (!policy) return undefined;
    const tools = policy.tools.length > 0 ? `\n\nTools: ${policy.tools.map(code).join(', ')}` : '';
    return `**${plainMarkdown(policy.id)}** · ${plainMarkdown(policy.category)} · challenge ${policy.challenge}/5\n\n${plainMarkdown(policy.text)}${tools}`;
  }
  if (symbol.kind === 'tool') {
    const tool = model.tools.find((t) => t.name === symbol.name);
    if (!tool) return undefined;
    const required = new Set(tool.parameters.required ?? []);
    const params = Object.entries(tool.parameters.properties ?? {}).map(
      ([name, spec]) =>
        `- ${code(name)}${required.has(name) ? '' : '?'}: ${typeLabel(spec.type)}${typeof spec.description === 'string' ? ` (${plainMarkdown(spec.description)})` : ''}`,
    );
    const requires = (tool.requires ?? []).map(
      (p) => `- ${code(p.condition)}, else: ${plainMarkdown(p.error)}`,
    );
    return `**${plainMarkdown(tool.name)}** · ${tool.kind} tool\n\n${plainMarkdown(tool.description)}${params.length > 0 ? `\n\nParameters:\n${params.join('\n')}` : ''}${requires.length > 0 ? `\n\nRequires:\n${requires.join('\n')}` : ''}`;
  }
  const table = model.tables.find((t) => t.name === symbol.name);
  if (!table) return undefined;
  const columns = table.columns.map(
    (c) =>
      `- ${code(c.name)}: ${plainMarkdown(c.type)}${c.nullable ? ' or null' : ''}${c.name === table.key ? ' (key)' : ''}`,
  );
  return `**${plainMarkdown(table.name)}** · table · ${table.rows.length} rows\n\n${columns.join('\n')}`;
}

/**
 * Markdown for a check's kind under the pointer in rules.yaml (`kind: grounded`): what the kind
 * verifies and the fields it reads; undefined anywhere else.
 */
export function checkKindHover(text: string, offset: number): string | undefined {
  const at = wordAt(text, offset) ?? wordAt(text, offset - 1);
  const kind = CHECK_KINDS.find((k) => k === at?.word);
  if (!at || kind === undefined) return undefined;
  const lineStart = text.lastIndexOf('\n', at.start - 1) + 1;
  if (!/^\s*(?:-\s+)?kind\s*:\s*['"]?$/.test(text.slice(lineStart, at.start))) return undefined;
  return `**${kind}** · check\n\n${CHECK_KIND_HELP[kind]}`;
}
