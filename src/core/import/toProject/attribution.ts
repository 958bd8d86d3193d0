import { stems } from '../../extract/toolLinks.ts';
import type { GoldRun } from './endStates.ts';

/*
 * Every expectation of an imported scenario names the policy its failure is charged to. Its
 * actions were charged to their tools' policies (inPlay.ts); what is left is charged here, by
 * what the task itself shows:
 * - a lookup no policy governs serves the step after it: it is charged to the policy of the next
 *   step that has one, else of the one before (a change no policy governs is left uncharged,
 *   and the import report says so);
 * - something the agent must say or must have said (communicate_info, an NL assertion) is
 *   charged to the step whose answer in the gold run holds the fact it names (an amount, an id);
 *   else to the policy whose words it shares most, rare words counting most; else to the
 *   policy of the scenario's last change (what the task is for), else its first policy.
 * State assertions and the end state are charged when the dialogue is judged, by the step the
 * agent missed or the call that did the harm (sim/expectations.ts).
 */

/**
 * A tool's own failure that is a lookup coming up empty ("Order not found"): no policy's rule,
 * just the tool's answer.
 */
const LOOKUP_FAILURE =
  /\bnot\s+found\b|\b(?:does\s+not|doesn't|do\s+not|don't)\s+exist\b|\bno\s+such\b|\bunknown\b/i;

/**
 * Each tool's preconditions that encode a policy, named: a failure that is not a lookup coming
 * up empty is charged to the policy whose words it shares most (the error's and the quoted values
 * its condition tests, as "pending"), the policies linked to the tool counting most; one that
 * shares too little with any policy stays unnamed, the tool's own failure. A named one is
 * `attempt: noted`: the source grades outcomes, so a refused attempt is shown, never a failure.
 */
export function preconditionPolicies<
  T extends {
    readonly name: string;
    readonly requires?: ReadonlyArray<{
      readonly condition: string;
      readonly error: string;
      readonly not_imported?: true;
      readonly policy?: string;
    }>;
  },
>(tools: readonly T[], policies: readonly PolicyText[], linked: (tool: string) => string[]): T[] {
  return tools.map((tool) => {
    if (!tool.requires) return tool;
    const byWords = wordMatcher(policies, linked(tool.name));
    const requires = tool.requires.map((pre) => {
      if (pre.not_imported || pre.policy !== undefined || LOOKUP_FAILURE.test(pre.error))
        return pre;
      const quoted = [...pre.condition.matchAll(/"([^"\\]*)"|'([^'\\]*)'/g)].map(
        (m) => m[1] ?? m[2] ?? '',
      );
      const policy = byWords([pre.error, ...quoted].join(' '));
      // tau2-bench grades what a run did, not what it tried: the attempt is counted, not failing.
      return policy === undefined ? pre : { ...pre, policy, attempt: 'noted' as const };
    });
    return { ...tool, requires };
  });
}

/** A policy as the import wrote it. */
export interface PolicyText {
  readonly id: string;
  readonly text: string;
}

type Entry = Record<string, unknown>;

// A policy is named by its words only when it shares enough of the rarer ones.
const MIN_SHARED = 2.5;
// Policies already in play are the likelier ones.
const IN_PLAY = 1.5;

/** The scenario with every expectation it can charge named, and those policies in play. */
export function attributed(
  scenario: Entry,
  run: GoldRun | undefined,
  project: { readonly policies: readonly PolicyText[]; readonly reads: ReadonlySet<string> },
): Entry {
  const { policies, reads } = project;
  const expected = scenario.expected as Entry | undefined;
  if (!expected) return scenario;
  const inPlay = Array.isArray(scenario.policies)
    ? scenario.policies.filter((p): p is string => typeof p === 'string')
    : [];
  const actions = stepsCharged(listOf(expected.required_actions, 'tool'), reads);
  const byAnswer = answerCharger(actions, run?.answers ?? []);
  const byWords = wordMatcher(policies, inPlay);
  // Else the policy of the scenario's last change: what the task is for.
  const change = actions.findLast(
    (a) => typeof a.policy === 'string' && typeof a.tool === 'string' && !reads.has(a.tool),
  )?.policy as string | undefined;
  const fallback = () => change ?? inPlay[0];
  // What the agent must tell is charged to the policy on giving information, found by its words
  // and the fact's; what it must do, to the policy its words name, else to the step that answered.
  const charge = (text: string, telling: boolean) =>
    telling
      ? (byWords(`${text} ${INFORMING}`) ?? byAnswer(text) ?? fallback())
      : (byWords(text) ?? byAnswer(text) ?? fallback());
  const named = (items: unknown, key: string, telling: (text: string) => boolean) =>
    listOf(items, key).map((entry) => {
      if (typeof entry.policy === 'string') return entry;
      const text = entry[key];
      const policy = typeof text === 'string' ? charge(text, telling(text)) : undefined;
      return policy === undefined ? entry : { ...entry, policy };
    });
  const out: Entry = { ...expected };
  if (Array.isArray(expected.required_actions)) out.required_actions = actions.map(plain('tool'));
  if (Array.isArray(expected.must_say))
    out.must_say = named(expected.must_say, 'phrase', () => true).map(plain('phrase'));
  if (Array.isArray(expected.assertions))
    out.assertions = named(expected.assertions, 'assertion', tells).map(plain('assertion'));
  const groups = ['required_actions', 'must_say', 'assertions'] as const;
  const policiesNamed = [...inPlay];
  for (const group of groups)
    for (const item of Array.isArray(out[group]) ? (out[group] as unknown[]) : []) {
      const p = typeof item === 'object' && item !== null ? (item as Entry).policy : undefined;
      if (typeof p === 'string' && !policiesNamed.includes(p)) policiesNamed.push(p);
    }
  // Left over, with no step to follow and no words in common: the scenario's first policy, as
  // the others made it.
  const first = policiesNamed[0];
  if (first !== undefined)
    for (const [group, key] of [
      ['must_say', 'phrase'],
      ['assertions', 'assertion'],
    ] as const)
      if (Array.isArray(out[group]))
        out[group] = (out[group] as unknown[]).map((item) =>
          typeof item === 'string' ? { [key]: item, policy: first } : item,
        );
  return {
    ...scenario,
    ...(policiesNamed.length > 0 && { policies: policiesNamed }),
    expected: out,
  };
}

// The words of a policy on giving the user information, and the verbs of an assertion about it.
const INFORMING = 'provide the user with information';
const TELLING =
  /\b(tells?|told|inform|informs|say|says|said|mention|mentions|explain|explains|provide|provides|communicate|communicates)\b/i;

/** Whether an assertion is about what the agent tells the user. */
const tells = (text: string) => TELLING.test(text);

/** Each item as a mapping: a plain string becomes `{ [key]: string }`. */
function listOf(items: unknown, key: string): Entry[] {
  if (!Array.isArray(items)) return [];
  return items.map((item: unknown) =>
    typeof item === 'object' && item !== null ? (item as Entry) : { [key]: item },
  );
}

/** A mapping with nothing but its value written plainly again. */
const plain =
  (key: string) =>
  (entry: Entry): unknown =>
    Object.keys(entry).length === 1 && key in entry ? entry[key] : entry;

/** The lookups, each without a policy charged to the next step's, else the one before's. */
function stepsCharged(actions: readonly Entry[], reads: ReadonlySet<string>): Entry[] {
  const policyAt = (i: number) => {
    const p = actions[i]?.policy;
    return typeof p === 'string' ? p : undefined;
  };
  return actions.map((action, i) => {
    if (policyAt(i) !== undefined || typeof action.tool !== 'string' || !reads.has(action.tool))
      return action;
    const after = actions.findIndex((_, j) => j > i && policyAt(j) !== undefined);
    const before = actions.findLastIndex((_, j) => j < i && policyAt(j) !== undefined);
    const policy = after >= 0 ? policyAt(after) : before >= 0 ? policyAt(before) : undefined;
    return policy === undefined ? action : { ...action, policy };
  });
}

/** How a fact reads in any text: lower case, without thousands separators, currency or spaces. */
function normal(text: string): string {
  return text
    .toLowerCase()
    .replace(/(\d)[,\s](?=\d{3}\b)/g, '$1')
    .replace(/[$€£\s]/g, '');
}

/** The facts a sentence names: its tokens that hold a digit, at least three characters long. */
function factsOf(text: string): string[] {
  return text
    .split(/[\s,;:!?()"']+/)
    .map((t) => normal(t.replace(/\.$/, '')))
    .filter((t) => /\d/.test(t) && t.length >= 3);
}

/**
 * Charges a text to the step whose gold answer holds most of the facts it names (the whole text,
 * when it is one fact, as communicate_info is): the policy of that step.
 */
function answerCharger(
  actions: readonly Entry[],
  answers: GoldRun['answers'],
): (text: string) => string | undefined {
  const seen = new Map<string, number>();
  const steps = answers.map(({ tool, answer }) => {
    const n = seen.get(tool) ?? 0;
    seen.set(tool, n + 1);
    const action = actions.filter((a) => a.tool === tool)[n];
    const policy = typeof action?.policy === 'string' ? action.policy : undefined;
    return { text: normal(answer), policy };
  });
  return (text) => {
    const facts = [...new Set([normal(text), ...factsOf(text)])].filter((f) => f.length >= 3);
    let best: { policy: string; held: number } | undefined;
    for (const step of steps) {
      if (step.policy === undefined) continue;
      const held = facts.filter((f) => step.text.includes(f)).length;
      if (held > 0 && (best === undefined || held > best.held))
        best = { policy: step.policy, held };
    }
    return best?.policy;
  };
}

/** Charges a text to the policy whose words it shares most, rare words counting most. */
function wordMatcher(
  policies: readonly PolicyText[],
  inPlay: readonly string[],
): (text: string) => string | undefined {
  const indexed = policies.map((p) => ({ id: p.id, words: stems(p.text) }));
  const frequency = new Map<string, number>();
  for (const p of indexed) for (const w of p.words) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  const weight = (w: string) =>
    Math.log((indexed.length + 1) / (frequency.get(w) ?? indexed.length));
  return (text) => {
    const own = stems(text);
    let best: { id: string; score: number; size: number } | undefined;
    for (const p of indexed) {
      const shared = [...p.words].filter((w) => own.has(w));
      const score =
        shared.reduce((sum, w) => sum + weight(w), 0) * (inPlay.includes(p.id) ? IN_PLAY : 1);
      // On a tie the more particular policy (fewer words) is the likelier one.
      const better =
        best === undefined ||
        score > best.score + 1e-9 ||
        (score > best.score - 1e-9 && p.words.size < best.size);
      if (score >= MIN_SHARED && better) best = { id: p.id, score, size: p.words.size };
    }
    return best?.id;
  };
}
