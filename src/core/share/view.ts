/*
 * The view part of a share link (`&v=…`): what to show on arrival, written compactly and readably
 * as `key:value` entries joined by commas, each value percent-encoded (so a comma, colon or `&`
 * inside a value cannot break the list):
 *
 *   m:graph            maximize the Graph pane
 *   p:<policy id>      select a policy
 *   q:<text>           the search box
 *   t:<tool name>      select a tool
 *   s:<policy id>      one policy of a sample combination, once per policy, in order;
 *                      a bare `s` is an empty combination
 */

/** What the link says to show on arrival. */
export interface ShareView {
  readonly maximize?: 'graph';
  readonly policy?: string;
  readonly search?: string;
  readonly tool?: string;
  readonly sample?: readonly string[];
}

const TEXT_KEYS = { p: 'policy', q: 'search', t: 'tool' } as const;

/** A lone UTF-16 surrogate, which percent-encoding cannot write; it becomes U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const encode = (text: string) => encodeURIComponent(text.replace(LONE_SURROGATE, '\uFFFD'));

/** Writes a view as the link's `v` value; an empty view is an empty string. */
export function encodeView(view: ShareView): string {
  const entries: string[] = [];
  if (view.maximize === 'graph') entries.push('m:graph');
  for (const [key, field] of Object.entries(TEXT_KEYS)) {
    const value = view[field];
    if (value !== undefined) entries.push(`${key}:${encode(value)}`);
  }
  if (view.sample !== undefined) {
    if (view.sample.length === 0) entries.push('s');
    for (const id of view.sample) entries.push(`s:${encode(id)}`);
  }
  return entries.join(',');
}

/**
 * Reads a link's `v` value. Never throws and never refuses: an entry it cannot read is left out
 * and said in `skipped`, so a damaged view still opens the project.
 */
export function decodeView(text: string): { view: ShareView; skipped: string[] } {
  const view: { -readonly [K in keyof ShareView]: ShareView[K] } = {};
  const sample: string[] = [];
  let hasSample = false;
  const skipped: string[] = [];
  for (const entry of text === '' ? [] : text.split(',')) {
    const colon = entry.indexOf(':');
    const key = colon < 0 ? entry : entry.slice(0, colon);
    const raw = colon < 0 ? undefined : entry.slice(colon + 1);
    let value: string | undefined;
    try {
      value = raw === undefined ? undefined : decodeURIComponent(raw);
    } catch {
      skipped.push(entry);
      continue;
    }
    if (key === 'm' && value === 'graph') view.maximize = 'graph';
    else if (key === 's' && value === undefined) hasSample = true;
    else if (key === 's' && value !== undefined) {
      hasSample = true;
      sample.push(value);
    } else if (Object.hasOwn(TEXT_KEYS, key) && value !== undefined) {
      view[TEXT_KEYS[key as keyof typeof TEXT_KEYS]] = value;
    } else skipped.push(entry);
  }
  if (hasSample) view.sample = sample;
  return { view, skipped };
}
