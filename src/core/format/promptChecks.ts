import type { Diagnostic } from '../diagnostics.ts';
import { diagnosticAt } from '../diagnostics.ts';
import type { PromptInfo } from '../sim/prompts.ts';
import { PROMPT_TEMPLATES, placesIn } from '../sim/prompts.ts';
import { closest } from '../text.ts';
import type { PromptOverride } from './model.ts';
import type { YamlFile } from './yamlFile.ts';

/** Anything written between double braces, so `{{ goal }}` and `{{gaol}}` are both caught. */
const BRACES = /\{\{([^{}\n]*)\}\}/g;

/** How a prompt is named in a sentence: "the user simulator prompt". */
export function promptName(info: PromptInfo): string {
  return `the ${info.title.toLowerCase()} prompt`;
}

/**
 * Checks the project's own prompts (`prompts:` in scenarios.yaml) against what each template
 * can fill in: an empty one is an error; a `{{place}}` the engine does not fill, a left-out place
 * the model needs, or a missing stop signal is a warning that says what the model will not get.
 */
export function checkPrompts(prompts: readonly PromptOverride[], file: YamlFile): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const prompt of prompts) {
    const info = PROMPT_TEMPLATES.find((p) => p.key === prompt.key);
    if (!info) continue;
    const name = promptName(info);
    if (prompt.text.trim() === '') {
      out.push(
        file.atKey(
          prompt.path,
          'error',
          'empty-prompt',
          `${capital(name)} is empty. Write it, or remove "${prompt.key}:" to use the built-in one.`,
        ),
      );
      continue;
    }
    const known = Object.keys(info.places);
    const seen = new Map<string, number>();
    for (const match of prompt.text.matchAll(BRACES)) {
      const written = match[0];
      const occurrence = seen.get(written) ?? 0;
      seen.set(written, occurrence + 1);
      const inner = match[1] ?? '';
      if (/^\w+$/.test(inner) && known.includes(inner)) continue;
      const trimmed = inner.trim();
      const message = known.includes(trimmed)
        ? `\`${written}\` is not filled in: write it \`{{${trimmed}}}\`, without spaces.`
        : `\`${written}\` is not filled in for ${name}; it knows ${known.map((k) => `{{${k}}}`).join(', ')}.${hint(trimmed, known)}`;
      out.push(placeDiagnostic(file, prompt, written, occurrence, message));
    }
    const used = new Set(placesIn(prompt.text).map((p) => p.name));
    for (const [place, about] of Object.entries(info.places)) {
      if (about.essential === undefined || used.has(place)) continue;
      out.push(
        file.atKey(
          prompt.path,
          'warning',
          'missing-place',
          `${capital(name)} has no {{${place}}} (${about.description}): ${about.essential}.`,
        ),
      );
    }
    if (info.mustMention && !prompt.text.includes(info.mustMention.text)) {
      out.push(
        file.atKey(
          prompt.path,
          'warning',
          'missing-stop',
          `${capital(name)} never mentions ${info.mustMention.text}: ${info.mustMention.why}.`,
        ),
      );
    }
  }
  return out;
}

function hint(word: string, known: readonly string[]): string {
  const guess = word === '' ? undefined : closest(word, known);
  return guess === undefined ? '' : ` Did you mean {{${guess}}}?`;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Points at the `occurrence`-th `written` inside the prompt's text, or at the whole text. */
function placeDiagnostic(
  file: YamlFile,
  prompt: PromptOverride,
  written: string,
  occurrence: number,
  message: string,
): Diagnostic {
  const span = file.spanOf(prompt.path);
  const source = file.text.slice(span.start, span.end);
  let at = -1;
  for (let i = 0; i <= occurrence; i++) {
    at = source.indexOf(written, at + 1);
    if (at === -1) break;
  }
  const where =
    at === -1 ? span : { start: span.start + at, end: span.start + at + written.length };
  return diagnosticAt(file.file, file.index, where, 'warning', 'unknown-place', message);
}
