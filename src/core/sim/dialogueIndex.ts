import type { ModelRole } from '../models/chat.ts';
import type { SimEvent, TerminationReason } from './events.ts';
import type { PolicyFacts, RunReport, Verdict } from './reportTypes.ts';

/*
 * The Replay pane's dialogue list: one row per dialogue with what the list shows and filters
 * on, built in one pass over the log, so it stays fast with thousands of dialogues.
 */

/** One dialogue as the Replay list shows it and filters it. */
export interface DialogueRow {
  readonly dialogue: string;
  readonly scenario: string;
  readonly trial: number;
  readonly verdict: Verdict;
  /** Why it ended; null while it runs. */
  readonly ending: TerminationReason | null;
  /** Whose model call ended it, for an ending one caused. */
  readonly endingRole: ModelRole | null;
  /** The scenario's policies in play. */
  readonly policies: readonly string[];
  /** The policies its breaches name, sorted. */
  readonly breached: readonly string[];
  /** The categories of the policies in play and breached (policies the project lacks left out). */
  readonly categories: readonly string[];
  /** The judge model and the deterministic findings disagree on some policy here. */
  readonly judgeDisagrees: boolean;
  /** The policies the judge model called violated here (its opinion), sorted. */
  readonly judgeViolated: readonly string[];
  /** The raw message index of its first breach that has one: where the list opens it. */
  readonly firstBreachTurn: number | null;
  /** How many messages it has. */
  readonly messages: number;
  /** Its messages, tool names and arguments, lowercased, for text search. */
  readonly search: string;
}

/**
 * What the list is narrowed to; a row passes when it matches every field given. A field left
 * out or undefined asks nothing (so a menu can clear its field by setting it to undefined).
 */
export interface DialogueFilter {
  /** The row's verdict is one of these (an empty list matches nothing). */
  readonly verdicts?: readonly Verdict[] | undefined;
  /** The policy is in play or breached. */
  readonly policy?: string | undefined;
  readonly category?: string | undefined;
  readonly ending?: TerminationReason | undefined;
  readonly scenario?: string | undefined;
  readonly trial?: number | undefined;
  readonly judgeDisagrees?: boolean | undefined;
  /** Every whitespace-separated word occurs in the row's text, case-insensitively. */
  readonly text?: string | undefined;
}

/** The distinct values present in a list, sorted, for the filter menus. */
export interface FilterChoices {
  readonly policies: readonly string[];
  readonly categories: readonly string[];
  readonly endings: readonly TerminationReason[];
  readonly scenarios: readonly string[];
  readonly trials: readonly number[];
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const sorted = (values: Iterable<string>): string[] => [...new Set(values)].sort(byText);

interface Gathered {
  messages: number;
  readonly words: string[];
}

/** Each dialogue's message count and searchable text, in one pass over the log. */
function gather(events: readonly SimEvent[]): Map<string, Gathered> {
  const all = new Map<string, Gathered>();
  for (const e of events) {
    switch (e.type) {
      case 'dialogue-started':
        // A dialogue started again (a resumed run re-plays one cut off) starts afresh.
        all.set(e.dialogue, { messages: 0, words: [] });
        break;
      case 'message': {
        const d = all.get(e.dialogue);
        if (d) {
          d.messages++;
          d.words.push(e.text);
        }
        break;
      }
      case 'tool-call':
        all.get(e.dialogue)?.words.push(e.tool, argsText(e.args));
        break;
      default:
        break;
    }
  }
  return all;
}

function argsText(args: Readonly<Record<string, unknown>>): string {
  try {
    return JSON.stringify(args);
  } catch {
    return '';
  }
}

/**
 * One row per dialogue of the report, in its order, with the scenario's policies, what broke,
 * the judge's opinion and the searchable text, from one pass over the events.
 */
export function dialogueIndex(
  events: readonly SimEvent[],
  report: RunReport,
  facts: PolicyFacts,
): DialogueRow[] {
  const gathered = gather(events);
  const policiesOf = new Map(report.scenarios.map((s) => [s.id, s.policies]));
  const disagreeing = new Set(report.judgeOpinion.agreement.disagreements.map((d) => d.dialogue));
  return report.dialogues.map((d) => {
    const policies = policiesOf.get(d.scenario) ?? [];
    const breached = sorted(d.breaches.flatMap((b) => (b.policy === undefined ? [] : [b.policy])));
    const categories = sorted(
      [...policies, ...breached].flatMap((p) => {
        const category = facts.get(p)?.category;
        return category === undefined ? [] : [category];
      }),
    );
    const g = gathered.get(d.dialogue);
    return {
      dialogue: d.dialogue,
      scenario: d.scenario,
      trial: d.trial,
      verdict: d.verdict,
      ending: d.ending,
      endingRole: d.endingRole,
      policies,
      breached,
      categories,
      judgeDisagrees: disagreeing.has(d.dialogue),
      judgeViolated: sorted(d.judgeViolations.map((j) => j.policy)),
      firstBreachTurn: d.breaches.find((b) => b.turn !== undefined)?.turn ?? null,
      messages: g?.messages ?? 0,
      search: g ? g.words.join('\n').toLowerCase() : '',
    };
  });
}

/** The words of a text query, lowercased. */
const wordsOf = (text: string): string[] => text.toLowerCase().split(/\s+/).filter(Boolean);

/** The rows that match every field the filter gives, in their order. */
export function filterDialogues(
  rows: readonly DialogueRow[],
  filter: DialogueFilter,
): DialogueRow[] {
  const { verdicts, policy, category, ending, scenario, trial, judgeDisagrees, text } = filter;
  const words = text === undefined ? [] : wordsOf(text);
  return rows.filter(
    (r) =>
      (verdicts === undefined || verdicts.includes(r.verdict)) &&
      (policy === undefined || r.policies.includes(policy) || r.breached.includes(policy)) &&
      (category === undefined || r.categories.includes(category)) &&
      (ending === undefined || r.ending === ending) &&
      (scenario === undefined || r.scenario === scenario) &&
      (trial === undefined || r.trial === trial) &&
      (judgeDisagrees === undefined || r.judgeDisagrees === judgeDisagrees) &&
      words.every((w) => r.search.includes(w)),
  );
}

/** The distinct policies, categories, endings, scenarios and trials of the rows, sorted. */
export function filterChoices(rows: readonly DialogueRow[]): FilterChoices {
  const policies = new Set<string>();
  const categories = new Set<string>();
  const endings = new Set<TerminationReason>();
  const scenarios = new Set<string>();
  const trials = new Set<number>();
  for (const r of rows) {
    for (const p of r.policies) policies.add(p);
    for (const p of r.breached) policies.add(p);
    for (const c of r.categories) categories.add(c);
    if (r.ending !== null) endings.add(r.ending);
    scenarios.add(r.scenario);
    trials.add(r.trial);
  }
  return {
    policies: sorted(policies),
    categories: sorted(categories),
    endings: [...endings].sort(byText),
    scenarios: sorted(scenarios),
    trials: [...trials].sort((a, b) => a - b),
  };
}
