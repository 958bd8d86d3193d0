import type { FactKind } from '../format/model.ts';
import type { SimScenario } from './events.ts';
import type { Transcript, TranscriptMessage } from './transcript.ts';
import { agentMessages, ordinal } from './transcript.ts';
import type { Verdict } from './verdict.ts';
import { fail, pass } from './verdict.ts';

/*
 * `grounded`: every fact the agent states (an amount, an id, a date, a number) must come from
 * somewhere it could know it: a tool result it had been given, something the user had said, its
 * system prompt, or the scenario. A fact stated before its source arrived is made up all the same.
 * Facts are compared as people write them the same: "$1,628.00", "1628" and 1628.0 are one
 * amount; "#W123" and "w123" one id; "2026-03-14" and "March 14, 2026" one date. A number the
 * agent worked out from two it had (a sum, a difference, a product) counts as grounded. Names are
 * not checked (the docs say so).
 */

/** What grounds the agent's words besides the dialogue: its system prompt, the scenario's brief. */
export interface Grounds {
  readonly texts: readonly string[];
}

/**
 * What grounds a dialogue of a scenario besides its own turns: the agent's system prompt, and
 * what the scenario's brief says (persona, goal, what the user knows).
 */
export function groundsOf(prompt: string, scenario: SimScenario | undefined): Grounds {
  return {
    texts: [prompt, ...(scenario ? [scenario.persona, scenario.goal, ...scenario.knows] : [])],
  };
}

export const FACT_KINDS: readonly FactKind[] = ['amounts', 'ids', 'dates', 'numbers'];

/** One fact found in a text: its kind, the words as written, and how it compares. */
interface Fact {
  readonly kind: FactKind;
  readonly written: string;
  /** Numbers by value; ids and dates by their normal text. */
  readonly value: number | string;
  /** Where it starts in its text. */
  readonly at: number;
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const MONTH = `(?:${MONTHS.map((m) => `${m.slice(0, 3)}(?:${m.slice(3)})?`).join('|')})\\.?`;
const ISO_DATE = /(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)/g;
const WORD_DATE = new RegExp(
  `\\b(${MONTH})\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?\\b`,
  'gi',
);
const DAY_MONTH = new RegExp(
  `\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTH})(?:,?\\s+(\\d{4}))?\\b`,
  'gi',
);
// A token with letters and digits: an order, card or booking id ("#W8367380", "QH-5101", "pm_9001").
const ID = /(?<![\w$])#?[A-Za-z][\w-]*\d[\w-]*|(?<![\w$])#?\d+[A-Za-z][\w-]*/g;
// Money: a currency sign or word beside a number.
const AMOUNT =
  /(?:[$€£]\s?)(\d{1,3}(?:[,\s]\d{3})+|\d+)(?:\.(\d+))?|\b(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?\s?(?:dollars|usd|eur|euros|gbp|pounds)\b/gi;
const NUMBER = /(?<![\w.$€£,-])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![\w-])/g;

const numberOf = (whole: string, fraction: string | undefined): number =>
  Number(`${whole.replace(/[,\s]/g, '')}${fraction === undefined ? '' : `.${fraction}`}`);

const monthOf = (word: string): number =>
  MONTHS.findIndex((m) => m.startsWith(word.toLowerCase().replace('.', '').slice(0, 3))) + 1;

const pad = (n: number | string) => String(n).padStart(2, '0');

/**
 * Every fact of a text, each once per place, in order; a date's digits are not also numbers or
 * ids. One-digit counts are left out unless `small` ("2 items" is how people talk, not a fact to
 * look up; a source's counts still ground a product).
 */
function factsOf(text: string, small = false): Fact[] {
  const facts: Fact[] = [];
  const taken: [number, number][] = [];
  const free = (start: number, end: number) => !taken.some(([a, b]) => start < b && a < end);
  const add = (fact: Omit<Fact, 'at'>, start: number, end: number) => {
    if (!free(start, end)) return;
    taken.push([start, end]);
    facts.push({ ...fact, at: start });
  };
  for (const m of text.matchAll(ISO_DATE)) {
    const [, y, mo, d] = m;
    add(
      { kind: 'dates', written: m[0], value: `${y ?? ''}-${mo ?? ''}-${d ?? ''}` },
      m.index,
      m.index + m[0].length,
    );
  }
  for (const pattern of [WORD_DATE, DAY_MONTH])
    for (const m of text.matchAll(pattern)) {
      const [month, day] = pattern === WORD_DATE ? [m[1], m[2]] : [m[2], m[1]];
      const year = m[3];
      const mo = monthOf(month ?? '');
      if (mo === 0) continue;
      const value = `${year ?? '????'}-${pad(mo)}-${pad(day ?? '')}`;
      add({ kind: 'dates', written: m[0], value }, m.index, m.index + m[0].length);
    }
  for (const m of text.matchAll(AMOUNT)) {
    const value = numberOf(m[1] ?? m[3] ?? '', m[2] ?? m[4]);
    add({ kind: 'amounts', written: m[0].trim(), value }, m.index, m.index + m[0].length);
  }
  for (const m of text.matchAll(ID))
    add(
      { kind: 'ids', written: m[0], value: m[0].replace(/^#/, '').toLowerCase() },
      m.index,
      m.index + m[0].length,
    );
  for (const m of text.matchAll(NUMBER)) {
    const value = numberOf(m[1] ?? '', m[2]);
    if (!small && value < 10 && m[2] === undefined) continue;
    add({ kind: 'numbers', written: m[0], value }, m.index, m.index + m[0].length);
  }
  return facts.sort((a, b) => a.at - b.at);
}

/** What the agent could know at one point: the facts of everything it had been given. */
class Known {
  private readonly numbers = new Set<number>();
  private readonly texts = new Set<string>();
  private readonly days = new Set<string>();

  add(text: string): void {
    for (const fact of factsOf(text, true)) {
      if (typeof fact.value === 'number') this.numbers.add(round(fact.value));
      else if (fact.kind === 'dates') {
        this.texts.add(fact.value);
        this.days.add(fact.value.slice(5));
      } else this.texts.add(fact.value);
    }
    // An id inside JSON or prose may be written without its '#': both count.
    for (const m of text.toLowerCase().matchAll(/[a-z0-9][\w-]*\d[\w-]*/g)) this.texts.add(m[0]);
  }

  /** Whether the fact was given, or (a number) worked out from two that were. */
  holds(fact: Fact): boolean {
    if (typeof fact.value === 'number') {
      const v = round(fact.value);
      if (this.numbers.has(v)) return true;
      const known = [...this.numbers];
      return known.some((a) =>
        known.some((b) => round(a + b) === v || round(a - b) === v || round(a * b) === v),
      );
    }
    if (fact.kind === 'dates')
      return fact.value.startsWith('????')
        ? this.days.has(fact.value.slice(5))
        : this.texts.has(fact.value);
    return this.texts.has(fact.value);
  }
}

const round = (n: number) => Math.round(n * 100) / 100;

/** The words that ground the agent's messages up to one turn, in dialogue order. */
function sourcesBefore(transcript: Transcript, message: TranscriptMessage): string[] {
  const said = transcript.messages
    .filter((m) => m.speaker === 'user' && m.turn < message.turn)
    .map((m) => m.text);
  const results = transcript.calls.flatMap((c) =>
    c.turn < message.turn && c.result ? [c.result.text, JSON.stringify(c.args)] : [],
  );
  return [...said, ...results];
}

/**
 * `grounded` over the agent's messages: fails at the first message stating a fact of the kinds
 * asked (`facts`, all by default) that nothing before it grounds, quoting it.
 */
export function groundedFacts(
  transcript: Transcript,
  grounds: Grounds,
  kinds: readonly FactKind[] = FACT_KINDS,
): Verdict {
  const wanted = new Set(kinds);
  let stated = 0;
  for (const message of agentMessages(transcript)) {
    const facts = factsOf(message.text).filter((f) => wanted.has(f.kind));
    if (facts.length === 0) continue;
    stated += facts.length;
    const known = new Known();
    for (const text of [...grounds.texts, ...sourcesBefore(transcript, message)]) known.add(text);
    const made = facts.filter((f) => !known.holds(f));
    const [first] = made;
    if (first)
      return fail(
        `In its ${ordinal(message.nth)} reply the agent stated ${kindName(first.kind)} "${first.written}" that no tool result, user message, system prompt or scenario before it holds.${
          made.length > 1
            ? ` ${made.length - 1} more fact(s) in that reply were not grounded either: ${made
                .slice(1, 4)
                .map((f) => `"${f.written}"`)
                .join(', ')}.`
            : ''
        }`,
        message.turn,
      );
  }
  return pass(
    stated === 0
      ? 'The agent stated no amount, id, date or number.'
      : `Every one of the ${stated} facts the agent stated came from a tool result, the user, its prompt or the scenario.`,
  );
}

function kindName(kind: FactKind): string {
  return { amounts: 'the amount', ids: 'the id', dates: 'the date', numbers: 'the number' }[kind];
}
