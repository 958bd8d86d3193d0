import { words } from '../text.ts';

/** What extraction knows of a tool: its name, and the description tools.yaml gives it. */
export interface ToolInfo {
  readonly name: string;
  readonly description?: string;
}

const STOP = new Set(
  (
    'a an the to of and or for in on at by with be is are was were been it its this that these ' +
    'those you your we our they their them he she his her must should never always do does not ' +
    'only if when then than as from into any all each every can may will shall have has had no ' +
    'yes such so but also there here which who what how about up out over one some more most ' +
    'other same new given give gives take make go goes come want ask tell say before after ' +
    'what who per way'
  ).split(' '),
);
// Name parts that say how a tool looks something up, not what it is about.
const GENERIC = new Set(['get', 'find', 'list', 'detai', 'info', 'by', 'all', 'look', 'fetch']);
const MAX_LINKS = 3;
const MIN_SCORE = 3.5;
const WHOLE_NAME = 2;
// A word in more than about half of the tools' descriptions is not rare.
const RARE = 0.6;
const RELATIVE_SCORE = 0.6;

/**
 * A crude stem: plural and verb endings off, then the first five letters, so "cancelled",
 * "cancellation" and "cancel" meet, as do "modified" and "modify".
 */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('s') && !w.endsWith('ss') && w.length > 3) w = w.slice(0, -1);
  if (w.endsWith('ied') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('ing') && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith('ed') && w.length > 4) w = w.slice(0, -2);
  return w.slice(0, 5);
}

/** The words of a text that say what it is about, stemmed (`stem`), without the common ones. */
export function stems(text: string): Set<string> {
  return new Set(
    words(text.replace(/_/g, ' '))
      .filter((w) => !STOP.has(w))
      .map(stem),
  );
}

interface Indexed {
  readonly name: string;
  readonly nameStems: readonly string[];
  readonly descriptionStems: ReadonlySet<string>;
}

/**
 * Builds a function that names the tools a policy concerns: a tool whose name the text writes
 * out, or one that shares words with it: words of the tool's name count double in the text, once in
 * its context (heading and lead-in), words of its description in the text once, rare words
 * more than common ones. A tool is linked when it scores well and not far below the best one.
 * Word overlap only; nothing is asked of a model.
 */
export function toolLinker(
  tools: readonly ToolInfo[],
): (text: string, context?: string) => string[] {
  const indexed: Indexed[] = tools.map((tool) => {
    const all = [...stems(tool.name)];
    const specific = all.filter((s) => !GENERIC.has(s));
    return {
      name: tool.name,
      nameStems: specific.length > 0 ? specific : all,
      descriptionStems: stems(tool.description ?? ''),
    };
  });
  // Rare words count for more: a word in every tool's description says nothing.
  const frequency = new Map<string, number>();
  for (const tool of indexed) {
    for (const s of new Set([...tool.nameStems, ...tool.descriptionStems]))
      frequency.set(s, (frequency.get(s) ?? 0) + 1);
  }
  const weight = (s: string) => Math.log((indexed.length + 1) / (frequency.get(s) ?? 1));

  return (text, context = '') => {
    const own = stems(text);
    const seen = new Set([...own, ...stems(context)]);
    const scored: { name: string; score: number }[] = [];
    for (const tool of indexed) {
      if (text.includes(tool.name)) {
        scored.push({ name: tool.name, score: Infinity });
        continue;
      }
      const named = tool.nameStems.filter((s) => seen.has(s));
      const described = [...tool.descriptionStems].filter(
        (s) => own.has(s) && !tool.nameStems.includes(s),
      );
      // Every word of the name in the text or its heading ("book a room": book_room) counts extra.
      const whole = tool.nameStems.length >= 2 && tool.nameStems.every((s) => seen.has(s));
      const score =
        named.reduce((sum, s) => sum + (own.has(s) ? 2 : 1) * weight(s), 0) +
        described.reduce((sum, s) => sum + weight(s), 0) +
        (whole ? WHOLE_NAME : 0);
      // A tool is in question when the text names part of it, or shares two rare words of its
      // description; it is linked when it scores well, and not far below the best.
      const namedInText = named.some((s) => own.has(s));
      const rareDescribed = described.filter((s) => weight(s) >= RARE).length;
      if ((namedInText || whole || rareDescribed >= 2) && score >= MIN_SCORE)
        scored.push({ name: tool.name, score });
    }
    const best = Math.max(0, ...scored.map((s) => s.score));
    return scored
      .filter((s) => s.score >= best * RELATIVE_SCORE)
      .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
      .slice(0, MAX_LINKS)
      .map((s) => s.name);
  };
}
