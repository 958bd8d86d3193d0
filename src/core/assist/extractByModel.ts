import type { CandidatePolicy } from '../extract.ts';
import { slug } from '../extract.ts';
import { ModelError } from '../models/errors.ts';
import type { PromptTemplate } from '../sim/prompts.ts';
import { renderPrompt } from '../sim/prompts.ts';
import { words } from '../text.ts';
import { EXTRACT_POLICIES_PROMPT } from './extractPrompt.ts';

export { EXTRACT_POLICIES_PROMPT, POLICY_CATEGORIES } from './extractPrompt.ts';

// Extraction by a model (issue 19, Extract): a long system prompt is cut into sections (its
// headings are its flows), one call per section proposes atomic policies with a category from a
// documented list, a challenge, the tools involved and the words it came from; the answers are
// checked, placed back on the prompt's lines and merged, so a rule every flow repeats is one
// policy that names its flows instead of one copy per flow. Pure apart from `ask`, which the
// caller wires to a logged model call.

/** The JSON an answer must follow. */
export const EXTRACT_ANSWER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['policies'],
  properties: {
    policies: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['text', 'category', 'challenge', 'tools', 'quote'],
        properties: {
          text: { type: 'string', minLength: 1 },
          category: { type: 'string' },
          challenge: { type: 'integer', minimum: 1, maximum: 5 },
          tools: { type: 'array', items: { type: 'string' } },
          quote: { type: 'string' },
        },
      },
    },
  },
} as const;

/** A part of the prompt sent in one call: a heading's section (a flow), with where it starts. */
export interface ExtractSection {
  readonly title: string;
  readonly text: string;
  /** Its first line in the prompt (1-based). */
  readonly line: number;
}

/** The calls an extraction will make, before it makes them. */
export interface ExtractPlan {
  readonly sections: readonly ExtractSection[];
  readonly calls: number;
  /** Rough token counts (four characters a token) for the estimate shown before it runs. */
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** A proposal placed on the prompt: a candidate policy, the flows it came from, how it was placed. */
export interface ModelCandidate extends CandidatePolicy {
  readonly flows: readonly string[];
  /** `exact` when its quote was found as written, `near` when only its words were. */
  readonly placed: 'exact' | 'near';
}

export interface ExtractResult {
  readonly candidates: readonly ModelCandidate[];
  /** Each flow (section) and the ids of the policies it holds, shared ones included. */
  readonly flows: ReadonlyArray<{ readonly name: string; readonly policies: readonly string[] }>;
  /** What was wrong with answers, in words (an unknown tool, a quote not in the prompt …). */
  readonly problems: readonly string[];
  /** Sections answered, and whether Stop ended it before the last. */
  readonly answered: number;
  readonly stopped: boolean;
}

const HEADING = /^(#{1,3})\s+(.+?)\s*#*\s*$/;
const CHARS_PER_TOKEN = 4;

/**
 * The prompt's sections: each `#`–`###` heading starts one, text before the first heading is
 * one of its own ("Introduction"), empty ones are dropped, and a section longer than `maxChars`
 * is cut at blank lines (each part keeps the title).
 */
export function sectionsOf(prompt: string, maxChars = 6000): ExtractSection[] {
  const lines = prompt.split('\n');
  const raw: { title: string; from: number; to: number }[] = [];
  let current = { title: 'Introduction', from: 0, to: 0 };
  lines.forEach((line, i) => {
    const heading = HEADING.exec(line);
    if (heading) {
      current.to = i;
      raw.push(current);
      current = { title: heading[2] ?? '', from: i, to: i };
    }
  });
  current.to = lines.length;
  raw.push(current);
  const sections: ExtractSection[] = [];
  for (const { title, from, to } of raw) {
    let start = from;
    let size = 0;
    for (let i = from; i <= to; i++) {
      const line = lines[i];
      const blank = line === undefined || line.trim() === '';
      if (i < to && line !== undefined) size += line.length + 1;
      if ((i === to || (blank && size > maxChars)) && i > start) {
        const text = lines.slice(start, i).join('\n');
        if (words(text.replace(HEADING, '')).length > 0)
          sections.push({ title, text, line: start + 1 });
        start = i;
        size = 0;
      }
    }
  }
  return sections;
}

/** What `extractByModel` will send: one call per section, with a rough token estimate. */
export function planExtract(
  prompt: string,
  tools: readonly string[],
  categories: readonly string[],
  template: PromptTemplate = EXTRACT_POLICIES_PROMPT,
): ExtractPlan {
  const sections = sectionsOf(prompt);
  const input = sections.reduce(
    (sum, s) => sum + promptFor(template, s, tools, categories).length,
    0,
  );
  return {
    sections,
    calls: sections.length,
    inputTokens: Math.ceil(input / CHARS_PER_TOKEN),
    // An answer restates each section's rules with a little JSON around them.
    outputTokens: Math.ceil(
      (sections.reduce((sum, s) => sum + s.text.length, 0) * 1.5) / CHARS_PER_TOKEN,
    ),
  };
}

/** The text sent for one section. */
export function promptFor(
  template: PromptTemplate,
  section: ExtractSection,
  tools: readonly string[],
  categories: readonly string[],
): string {
  return renderPrompt(template, {
    categories: categories.join(', '),
    tools: tools.length > 0 ? tools.join(', ') : '(none)',
    title: section.title,
    section: section.text,
  });
}

/**
 * Runs the plan: `ask` sends one section's text and returns the model's JSON answer (it throws
 * when the call fails; the failure is a problem and the next section still runs). `stopped`
 * is checked before each call. Answers are checked and merged as `mergeProposals` says.
 */
export async function extractByModel(
  prompt: string,
  plan: ExtractPlan,
  known: {
    readonly tools: readonly string[];
    readonly categories: readonly string[];
    readonly ids?: readonly string[];
  },
  ask: (text: string, section: ExtractSection) => Promise<unknown>,
  options: {
    readonly template?: PromptTemplate;
    readonly stopped?: () => boolean;
    readonly onProgress?: (answered: number) => void;
  } = {},
): Promise<ExtractResult> {
  const template = options.template ?? EXTRACT_POLICIES_PROMPT;
  const answers: { section: ExtractSection; answer: unknown }[] = [];
  const problems: string[] = [];
  let stopped = false;
  for (const section of plan.sections) {
    if (options.stopped?.() === true) {
      stopped = true;
      break;
    }
    try {
      answers.push({
        section,
        answer: await ask(promptFor(template, section, known.tools, known.categories), section),
      });
    } catch (error) {
      // Stop during a call ends the extraction; it is no failure of the model.
      if (error instanceof ModelError && error.kind === 'aborted') {
        stopped = true;
        break;
      }
      problems.push(
        `Section “${section.title}” (line ${section.line}): the model call failed (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
    options.onProgress?.(answers.length);
  }
  const merged = mergeProposals(prompt, answers, known);
  return {
    ...merged,
    problems: [...problems, ...merged.problems],
    answered: answers.length,
    stopped,
  };
}

interface Proposal {
  readonly text: string;
  readonly category: string;
  readonly challenge: number;
  readonly tools: readonly string[];
  readonly quote: string;
}

/**
 * Checks each answer and merges the proposals of all sections: a category not in the list
 * becomes `general`, tools the project lacks are dropped, a challenge outside 1–5 is clamped
 * (each said in `problems`); each is placed on the prompt by its quote; proposals whose texts
 * say the same (the same meaningful words, or nearly) become one candidate that names every
 * flow it came from. Ids are made from the text and never repeat `known.ids`.
 */
export function mergeProposals(
  prompt: string,
  answers: ReadonlyArray<{ readonly section: ExtractSection; readonly answer: unknown }>,
  known: {
    readonly tools: readonly string[];
    readonly categories: readonly string[];
    readonly ids?: readonly string[];
  },
): Omit<ExtractResult, 'answered' | 'stopped'> {
  const problems: string[] = [];
  const tools = new Set(known.tools);
  const categories = new Set(known.categories);
  const lines = prompt.split('\n');
  const merged: {
    proposal: Proposal;
    flows: string[];
    place: ModelCandidate['source'] & { placed: 'exact' | 'near' };
  }[] = [];
  // Per flow, the proposals it holds (by index in `merged`), in the order its answer gave them.
  const order = new Map<string, number[]>();
  for (const { section, answer } of answers) {
    if (!order.has(section.title)) order.set(section.title, []);
    const where = `Section “${section.title}” (line ${section.line})`;
    for (const [i, raw] of proposalsOf(answer, where, problems).entries()) {
      const at = `${where}, policy ${i + 1}`;
      const proposal: Proposal = {
        text: raw.text.trim().replace(/\s+/g, ' '),
        category: categories.has(raw.category) ? raw.category : 'general',
        challenge: Math.min(5, Math.max(1, Math.round(raw.challenge))),
        tools: raw.tools.filter((t) => tools.has(t)),
        quote: raw.quote,
      };
      if (!categories.has(raw.category))
        problems.push(
          `${at}: category “${raw.category}” is not one of the list; filed under general.`,
        );
      for (const t of raw.tools.filter((t) => !tools.has(t)))
        problems.push(`${at}: “${t}” is not a tool of the project; left out.`);
      const holds = order.get(section.title) ?? [];
      const same = merged.findIndex((m) => sameRule(m.proposal.text, proposal.text));
      if (same >= 0) {
        const entry = merged[same];
        if (entry && !entry.flows.includes(section.title)) entry.flows.push(section.title);
        if (!holds.includes(same)) holds.push(same);
        continue;
      }
      holds.push(merged.length);
      const place = placeQuote(lines, proposal, section);
      if (place.placed === 'near')
        problems.push(
          `${at}: its quote is not in the prompt as written; placed by its words at line ${place.line}.`,
        );
      merged.push({ proposal, flows: [section.title], place });
    }
  }
  const used = new Set(known.ids ?? []);
  const candidates = merged.map(({ proposal, flows, place }): ModelCandidate => {
    const stem = slug(proposal.text, 6) || 'policy';
    let id = stem;
    for (let n = 2; used.has(id); n++) id = `${stem}-${n}`;
    used.add(id);
    return {
      id,
      text: proposal.text,
      category: proposal.category,
      challenge: proposal.challenge,
      tools: proposal.tools,
      source: { line: place.line, endLine: place.endLine },
      sharesLine: false,
      flows,
      placed: place.placed,
    };
  });
  const flows = [...order].map(([name, held]) => ({
    name,
    policies: held.flatMap((i) => candidates[i]?.id ?? []),
  }));
  return { candidates, flows, problems };
}

/** The proposals of one answer that have the fields they need; the rest are problems. */
function proposalsOf(answer: unknown, where: string, problems: string[]): Proposal[] {
  const list = (answer as { policies?: unknown } | null)?.policies;
  if (!Array.isArray(list)) {
    problems.push(`${where}: the answer has no list of policies.`);
    return [];
  }
  return list.flatMap((item: unknown, i) => {
    const p = item as Partial<Record<keyof Proposal, unknown>> | null;
    const ok =
      p !== null &&
      typeof p === 'object' &&
      typeof p.text === 'string' &&
      p.text.trim() !== '' &&
      typeof p.category === 'string' &&
      typeof p.challenge === 'number' &&
      Number.isFinite(p.challenge) &&
      Array.isArray(p.tools) &&
      p.tools.every((t) => typeof t === 'string') &&
      typeof p.quote === 'string';
    if (!ok) {
      problems.push(
        `${where}, policy ${i + 1}: it lacks a text, category, challenge, tools or quote; left out.`,
      );
      return [];
    }
    return [p as Proposal];
  });
}

const STOP = new Set(
  'a an the to of and or for in on at by with be is are it its this that you your must should never always do not only if when can may will'.split(
    ' ',
  ),
);

function meaningful(text: string): Set<string> {
  return new Set(words(text).filter((w) => !STOP.has(w)));
}

/** Two texts that state one rule: nearly all meaningful words shared, either way. */
export function sameRule(a: string, b: string): boolean {
  const x = meaningful(a);
  const y = meaningful(b);
  if (x.size === 0 || y.size === 0) return a.trim().toLowerCase() === b.trim().toLowerCase();
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return shared / Math.max(x.size, y.size) >= 0.8;
}

/** The lines a quote spans: found as written, else the section line sharing most of its words. */
function placeQuote(
  lines: readonly string[],
  proposal: Proposal,
  section: ExtractSection,
): { line: number; endLine: number; placed: 'exact' | 'near' } {
  const sectionLines = section.text.split('\n').length;
  // The section's text with runs of white space as one space, lower case, and the line of each
  // of its characters, so a quote that wraps lines is found and placed on all of them.
  let flat = '';
  const lineOf: number[] = [];
  for (let i = section.line - 1; i < Math.min(lines.length, section.line - 1 + sectionLines); i++) {
    for (const c of `${lines[i] ?? ''}\n`) {
      const ch = /\s/.test(c) ? ' ' : c.toLowerCase();
      if (ch === ' ' && (flat === '' || flat.endsWith(' '))) continue;
      flat += ch;
      lineOf.push(i + 1);
    }
  }
  const quote = proposal.quote.replace(/\s+/g, ' ').trim().toLowerCase();
  const at = quote === '' ? -1 : flat.indexOf(quote);
  if (at >= 0)
    return {
      line: lineOf[at] ?? section.line,
      endLine: lineOf[at + quote.length - 1] ?? section.line,
      placed: 'exact',
    };
  const target = meaningful(`${proposal.quote} ${proposal.text}`);
  let best = { line: section.line, score: -1 };
  for (let i = section.line - 1; i < section.line - 1 + sectionLines; i++) {
    const mine = meaningful(lines[i] ?? '');
    let score = 0;
    for (const w of mine) if (target.has(w)) score++;
    if (score > best.score) best = { line: i + 1, score };
  }
  return { line: best.line, endLine: best.line, placed: 'near' };
}
