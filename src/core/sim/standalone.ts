import type { SimEvent } from './events.ts';
import { readLog } from './logFormat.ts';

/** The id of the element of a standalone page that carries its run, as JSON. */
export const STANDALONE_RUN_ID = 'policylab-run';

/** The empty element of the viewer's template that a run is written into. */
const SLOT = `<script type="application/json" id="${STANDALONE_RUN_ID}"></script>`;

/** What a standalone page carries: the run's title and its log, as `readStandaloneRun` reads it. */
interface Payload {
  readonly title: string;
  readonly events: readonly SimEvent[];
}

/** A standalone page's run, read back: its title and checked log, or why it cannot be shown. */
export type StandaloneRun =
  | { readonly ok: true; readonly title: string; readonly events: SimEvent[] }
  | { readonly ok: false; readonly error: string };

/**
 * One HTML page that shows a run with no PolicyLab installed and no network: the viewer's
 * template (one file with its code and styles inlined) with the run's log written into its data
 * element and the run's title into `<title>`. The log goes in as JSON data, never as code, with
 * every `<` written `\u003c`, so no text a model or a person wrote can close the element or
 * start markup. Throws when the template has no place (or more than one) for the run.
 */
export function standaloneRunHtml(
  template: string,
  events: readonly SimEvent[],
  title: string,
): string {
  const page = template.replace(
    /<title>[^<]*<\/title>/,
    () => `<title>${escapeHtml(title)}</title>`,
  );
  const at = page.indexOf(SLOT);
  if (at < 0 || page.indexOf(SLOT, at + 1) >= 0)
    throw new Error('The viewer page has no single place for a run: it is not PolicyLab’s viewer.');
  const payload: Payload = { title, events };
  const json = JSON.stringify(payload).replace(/</g, '\\u003c');
  const open = SLOT.slice(0, SLOT.indexOf('</script>'));
  // Spliced by position: a replacement string would read `$&` and its kin in the log as patterns.
  return page.slice(0, at) + open + json + '</script>' + page.slice(at + SLOT.length);
}

/**
 * Reads the run a standalone page carries (the text of its data element) through `readLog`, so
 * an older log is migrated and a damaged one refused with a message; never throws.
 */
export function readStandaloneRun(text: string | null | undefined): StandaloneRun {
  if (text === null || text === undefined || text.trim() === '')
    return { ok: false, error: 'This page holds no run.' };
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return { ok: false, error: 'The run in this page is damaged: it is not JSON.' };
  }
  if (typeof payload !== 'object' || payload === null || !('events' in payload))
    return { ok: false, error: 'The run in this page is damaged: it has no log.' };
  const read = readLog(payload.events);
  if (!read.ok) return { ok: false, error: `The run in this page cannot be shown. ${read.error}` };
  const title = 'title' in payload && typeof payload.title === 'string' ? payload.title : 'A run';
  return { ok: true, title, events: read.events };
}

/** A file name for a run's standalone page: its title without the characters file systems refuse. */
export function standaloneFileName(title: string): string {
  const stem = title
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\\/:*?"<>|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  return `${stem.slice(0, 120).trim() || 'run'}.html`;
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
