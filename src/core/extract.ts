import { parseDocument } from 'yaml';
import { appendToTopLevelSequence } from './format/yamlEdit.ts';
import type { Policy } from './format/model.ts';
import { buildPolicies } from './format/buildModel.ts';
import { words } from './text.ts';

/** A policy found in the prompt, not yet part of policies.yaml. */
export interface CandidatePolicy {
  readonly id: string;
  readonly text: string;
  readonly category: string;
  readonly challenge: number;
  readonly tools: readonly string[];
  readonly source: { readonly line: number; readonly endLine: number };
}

const STOP_WORDS = new Set(
  'a an the to of and or for in on at by with be is are was were it its this that these those you your we our they their must should never always do does not only if when then than as from into any all each every can may will shall'.split(
    ' ',
  ),
);
const CONDITIONAL =
  /\b(unless|only if|except|within|before|after|until|at least|at most|more than|less than|if)\b/i;
const LIST_ITEM = /^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;

/**
 * Reads a free-form system prompt and proposes atomic policies: each list item is one candidate
 * (continuation lines included), filed under the nearest heading as its category. Ids are built
 * from the text, so the same prompt always gives the same ids. `toolNames` lets a candidate name
 * the tools its text mentions.
 */
export function extractPolicies(
  prompt: string,
  toolNames: readonly string[] = [],
): CandidatePolicy[] {
  const lines = prompt.split(/\r?\n/);
  const candidates: CandidatePolicy[] = [];
  const used = new Set<string>();
  let category = 'general';
  let inFence = false;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const heading = HEADING.exec(line);
    if (heading) {
      category = slug(heading[2] ?? '', 4) || 'general';
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (!item) continue;
    const indent = (item[1] ?? '').length;
    let text = (item[2] ?? '').trim();
    let end = i;
    // Continuation lines: indented deeper than the bullet and not a bullet themselves.
    while (end + 1 < lines.length) {
      const next = lines[end + 1] ?? '';
      if (next.trim() === '' || LIST_ITEM.test(next) || HEADING.test(next)) break;
      if (next.length - next.trimStart().length <= indent) break;
      text += ` ${next.trim()}`;
      end++;
    }
    text = stripMarkdown(text);
    if (words(text).length < 3) continue;
    const base = slug(text, 6) || 'policy';
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    candidates.push({
      id,
      text,
      category,
      challenge: challengeOf(text),
      tools: toolNames.filter((name) => text.includes(name)),
      source: { line: i + 1, endLine: end + 1 },
    });
    i = end;
  }
  return candidates;
}

function stripMarkdown(text: string): string {
  return text
    .replace(/\*\*|__|`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

function slug(text: string, maxWords: number): string {
  const meaningful = words(text).filter((w) => !STOP_WORDS.has(w));
  return meaningful
    .slice(0, maxWords)
    .join('-')
    .replace(/^[^a-z]+/, '');
}

function challengeOf(text: string): number {
  let challenge = 2;
  if (CONDITIONAL.test(text)) challenge++;
  if (words(text).length > 25) challenge++;
  return Math.min(5, challenge);
}

/** The candidates that policies.yaml does not already hold (same id, same source line, same text). */
export function newCandidates(
  candidates: readonly CandidatePolicy[],
  existing: readonly Policy[],
): CandidatePolicy[] {
  const ids = new Set(existing.map((p) => p.id));
  const lines = new Set(existing.flatMap((p) => (p.source ? [p.source.line] : [])));
  const texts = new Set(existing.map((p) => p.text.trim().toLowerCase()));
  return candidates.filter(
    (c) => !ids.has(c.id) && !lines.has(c.source.line) && !texts.has(c.text.toLowerCase()),
  );
}

/**
 * Adds candidates to the text of policies.yaml as a minimal edit: what is there keeps every byte,
 * comments included, and the new policies go at the end of the list. Returns the text unchanged
 * when it is not readable YAML.
 */
export function addPoliciesToYaml(
  policiesYaml: string,
  candidates: readonly CandidatePolicy[],
): string {
  const doc = parseDocument(policiesYaml);
  if (doc.errors.length > 0) return policiesYaml;
  const fresh = newCandidates(candidates, buildPolicies(doc.toJS()).policies);
  const items = fresh.map((candidate) => ({
    id: candidate.id,
    text: candidate.text,
    category: candidate.category,
    challenge: candidate.challenge,
    ...(candidate.tools.length > 0 ? { tools: [...candidate.tools] } : {}),
    source:
      candidate.source.endLine === candidate.source.line
        ? { line: candidate.source.line }
        : { line: candidate.source.line, endLine: candidate.source.endLine },
  }));
  return appendToTopLevelSequence(policiesYaml, 'policies', items) ?? policiesYaml;
}
