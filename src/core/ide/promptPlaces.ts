import type { PromptInfo } from '../sim/prompts.ts';
import { PROMPT_TEMPLATES } from '../sim/prompts.ts';
import type { CompletionItem } from './completion.ts';

/*
 * Editor help for `prompts:` in scenarios.yaml: the template keys, and each template's
 * `{{place}}` names with what the run fills them with.
 */

/** The template whose text holds the line starting at `lineStart`, when it is under `prompts:`. */
function templateAt(text: string, lineStart: number): PromptInfo | undefined {
  const above = text.slice(0, lineStart);
  const top = [...above.matchAll(/^([A-Za-z_]\w*):/gm)].at(-1);
  if (top?.[1] !== 'prompts') return undefined;
  const key = [...above.slice(top.index).matchAll(/^ {2}(\w+):/gm)].at(-1)?.[1];
  return PROMPT_TEMPLATES.find((p) => p.key === key);
}

/**
 * What to offer in scenarios.yaml under `prompts:`: the template keys where a key goes, and the
 * template's places after `{{`. Undefined where prompts have nothing to offer.
 */
export function promptCompletions(text: string, offset: number): CompletionItem[] | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  if (/^ {2}\w*$/.test(before)) {
    const top = [...text.slice(0, lineStart).matchAll(/^([A-Za-z_]\w*):/gm)].at(-1)?.[1];
    if (top !== 'prompts') return undefined;
    return PROMPT_TEMPLATES.map((p) => ({
      label: p.key,
      kind: 'value',
      detail: `${p.title} prompt`,
      documentation: p.purpose,
    }));
  }
  if (!/\{\{\s*\w*$/.test(before)) return undefined;
  const template = templateAt(text, lineStart);
  if (!template) return undefined;
  return Object.entries(template.places).map(([name, place]) => ({
    label: name,
    kind: 'variable',
    detail: `${template.title} place`,
    documentation: place.description,
  }));
}

/** Markdown for the `{{place}}` of a prompt template under the pointer, if there is one. */
export function promptPlaceHover(text: string, offset: number): string | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', offset);
  const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
  const column = offset - lineStart;
  const match = [...line.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].find(
    (m) => m.index <= column && column <= m.index + m[0].length,
  );
  const name = match?.[1];
  if (name === undefined) return undefined;
  const template = templateAt(text, lineStart);
  if (!template) return undefined;
  const place = template.places[name];
  if (!place) {
    const known = Object.keys(template.places).map((n) => `\`{{${n}}}\``);
    return `\`{{${name}}}\` is not filled in by the ${template.title.toLowerCase()} prompt; it is sent as written. Known places: ${known.join(', ')}.`;
  }
  return `\`{{${name}}}\` · ${template.title} prompt\n\nFilled with ${place.description}.`;
}
