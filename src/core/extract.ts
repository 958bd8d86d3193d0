import { parseDocument } from 'yaml';
import { appendToTopLevelSequence } from './format/yamlEdit.ts';
import type { Policy } from './format/model.ts';
import { buildPolicies } from './format/buildModel.ts';
import { words } from './text.ts';
import type { ToolInfo } from './extract/toolLinks.ts';
import { toolLinker } from './extract/toolLinks.ts';
import type { PolicyUnit } from './extract/units.ts';
import { policyUnits } from './extract/units.ts';

/** A policy found in the prompt, not yet part of policies.yaml. */
export interface CandidatePolicy {
  readonly id: string;
  readonly text: string;
  readonly category: string;
  readonly challenge: number;
  readonly tools: readonly string[];
  readonly source: { readonly line: number; readonly endLine: number };
  /** Whether other candidates start on the same line (sentences of one paragraph). */
  readonly sharesLine: boolean;
  /** The flows (sections of the prompt) that state it; written as `flows:` when there are any. */
  readonly flows?: readonly string[];
}

const STOP_WORDS = new Set(
  'a an the to of and or for in on at by with be is are was were it its this that these those you your we our they their must should never always do does not only if when then than as from into any all each every can may will shall'.split(
    ' ',
  ),
);
const CONDITIONAL =
  /\b(unless|only if|except|within|before|after|until|at least|at most|more than|less than|if)\b/i;

/** A candidate as policies.yaml writes it (a one-line source without its `endLine`). */
export function policyEntry(candidate: CandidatePolicy): Record<string, unknown> {
  const { line, endLine } = candidate.source;
  return {
    id: candidate.id,
    text: candidate.text,
    category: candidate.category,
    challenge: candidate.challenge,
    ...(candidate.tools.length > 0 ? { tools: [...candidate.tools] } : {}),
    source: endLine === line ? { line } : { line, endLine },
    ...(candidate.flows !== undefined && candidate.flows.length > 0
      ? { flows: [...candidate.flows] }
      : {}),
  };
}

/**
 * Reads a free-form system prompt and proposes atomic policies, filed under the nearest heading
 * as their category: each list item, and each sentence of a paragraph that carries an
 * obligation (see `policyUnits`). A nested item keeps its parents' words so it stands alone;
 * descriptions of data give nothing. Ids are built from the text, so the same prompt always
 * gives the same ids. `tools` (names, or names with their descriptions) lets a candidate name
 * the tools it concerns.
 */
export function extractPolicies(
  prompt: string,
  tools: readonly (string | ToolInfo)[] = [],
): CandidatePolicy[] {
  const link = toolLinker(tools.map((t) => (typeof t === 'string' ? { name: t } : t)));
  const units = policyUnits(prompt);
  const distinct = leadInWords(prompt, units);
  const used = new Set<string>();
  const starts = new Map<number, number>();
  for (const unit of units) starts.set(unit.line, (starts.get(unit.line) ?? 0) + 1);
  return units.map((unit) => {
    const own = unit.spans.map((s) => prompt.slice(s.start, s.end)).join(' ');
    const extra = distinct(unit).filter((w) => !words(own).includes(w));
    const base =
      [slug(own, 6), ...extra.slice(0, 2)].filter(Boolean).join('-') ||
      slug(unit.text, 6) ||
      'policy';
    let id = base.replace(/^[^a-z]+/, '') || 'policy';
    const stem = id;
    for (let n = 2; used.has(id); n++) id = `${stem}-${n}`;
    used.add(id);
    return {
      id,
      text: unit.text,
      category: slug(unit.heading, 4) || 'general',
      challenge: challengeOf(unit.text),
      tools: link(
        own,
        [unit.heading, ...unit.leadIn.map((s) => prompt.slice(s.start, s.end))].join(' '),
      ),
      source: { line: unit.line, endLine: unit.endLine },
      sharesLine: (starts.get(unit.line) ?? 0) > 1,
    };
  });
}

// The words of a unit's lead-in that few other lead-ins share ("silver" of "If the booking user
// is a silver member:"), so nested items with the same words get ids that tell them apart.
function leadInWords(prompt: string, units: readonly PolicyUnit[]): (unit: PolicyUnit) => string[] {
  const leadIns = new Map<string, string[]>();
  for (const unit of units) {
    const text = unit.leadIn.map((s) => prompt.slice(s.start, s.end)).join(' ');
    if (text !== '')
      leadIns.set(
        text,
        words(text).filter((w) => !STOP_WORDS.has(w)),
      );
  }
  const frequency = new Map<string, number>();
  for (const list of leadIns.values())
    for (const w of new Set(list)) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  return (unit) => {
    const text = unit.leadIn.map((s) => prompt.slice(s.start, s.end)).join(' ');
    const list = [...new Set(leadIns.get(text) ?? [])];
    // Stable order: rarest first, then as written.
    return list
      .map((w, i) => ({ w, i, f: frequency.get(w) ?? 0 }))
      .sort((a, b) => a.f - b.f || a.i - b.i)
      .map((x) => x.w);
  };
}

/** The first meaningful words of a text, joined by dashes: the stem of a policy id. */
export function slug(text: string, maxWords: number): string {
  const meaningful = words(text).filter((w) => !STOP_WORDS.has(w));
  return meaningful
    .slice(0, maxWords)
    .join('-')
    .replace(/^[^a-z]+/, '');
}

/** A first guess at how hard a policy is to keep (2–5): conditions and length add to it. */
export function challengeOf(text: string): number {
  let challenge = 2;
  if (CONDITIONAL.test(text)) challenge++;
  if (words(text).length > 25) challenge++;
  return Math.min(5, challenge);
}

/**
 * The candidates that policies.yaml does not already hold: same id, same text, or drawn from lines
 * a policy came from (its `source` line, or its lines up to `endLine`). Where several candidates
 * start on one line (sentences of one paragraph, clauses of one item), a policy from that line
 * holds only those whose words it mostly has, so adding one sentence of a paragraph does not hide
 * the others, and a policy made of a whole item holds the clauses cut from it.
 */
export function newCandidates(
  candidates: readonly CandidatePolicy[],
  existing: readonly Policy[],
): CandidatePolicy[] {
  const ids = new Set(existing.map((p) => p.id));
  const texts = new Set(existing.map((p) => p.text.trim().toLowerCase()));
  const sourced = existing.flatMap((p) =>
    p.source ? [{ from: p.source.line, to: p.source.endLine ?? p.source.line, text: p.text }] : [],
  );
  const held = (c: CandidatePolicy) =>
    sourced.some(
      (p) =>
        p.from <= c.source.line &&
        c.source.line <= p.to &&
        (!c.sharesLine || containment(c.text, p.text) >= SAME_POLICY_WORDS),
    );
  return candidates.filter((c) => !ids.has(c.id) && !texts.has(c.text.toLowerCase()) && !held(c));
}

const SAME_POLICY_WORDS = 0.6;

/** The share of the meaningful words of `part` that `whole` also has. */
function containment(part: string, whole: string): number {
  const mine = new Set(words(part).filter((w) => !STOP_WORDS.has(w)));
  const theirs = new Set(words(whole));
  let shared = 0;
  for (const w of mine) if (theirs.has(w)) shared++;
  return mine.size === 0 ? 1 : shared / mine.size;
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
  const items = fresh.map(policyEntry);
  return appendToTopLevelSequence(policiesYaml, 'policies', items) ?? policiesYaml;
}
