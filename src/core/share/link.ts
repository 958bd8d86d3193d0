import { deflateSync, strFromU8, strToU8 } from 'fflate';
import type { LoadNote } from '../bundle.ts';
import { projectFromFiles } from '../bundle.ts';
import type { Project } from '../project.ts';
import { droppedPositionsNote, readLayout } from '../project.ts';
import { fromBase64Url, toBase64Url } from './base64url.ts';
import { formatBytes, inflateBounded } from './inflate.ts';
import type { ShareView } from './view.ts';
import { decodeView, encodeView } from './view.ts';

/*
 * The share link: the whole project (name, six files, layout) as JSON, deflated and written in
 * base64url into the address's fragment, which browsers never send to a server. So a link opens
 * the same project in anyone's browser, and nothing leaves the sender's machine but the link.
 *
 *   https://policylab.app/#p=1.<base64url of deflate-raw(JSON)>&v=<view>
 *
 * The payload holds exactly `name`, `files` and (when there is one) `layout`: keys and settings
 * live elsewhere and cannot get in. Reading a link trusts nothing in it: sizes are capped before
 * and while unpacking, every value is checked, and every refusal says what is wrong in words.
 */

export type { ShareView } from './view.ts';

/** The format of the project part of a link (`p=<version>.…`); a change adds a migration. */
export const SHARE_LINK_VERSION = 1;

/** How big a link PolicyLab reads, checked before (length) and while (bytes) unpacking it. */
export const SHARE_LIMITS: { readonly maxLinkChars: number; readonly maxInflatedBytes: number } = {
  // Chromium's longest address is 2 MiB; no browser opens a longer link anyway.
  maxLinkChars: 2_000_000,
  maxInflatedBytes: 16 * 1024 * 1024,
};

/** The project as a link's payload holds it: plain JSON, not yet checked. */
type RawPayload = Readonly<Record<string, unknown>>;

/** One step of the link format: what changed, and how a payload of the version before is brought up. */
export interface ShareMigration {
  /** The version it reads; it writes `from + 1`. */
  readonly from: number;
  /** What changed, in words. */
  readonly change: string;
  readonly migrate: (payload: RawPayload) => RawPayload;
}

/** Every step from the first link format to `SHARE_LINK_VERSION`, in order (none yet). */
export const SHARE_MIGRATIONS: readonly ShareMigration[] = [];

/** Brings a payload saved in `version` up to the current format, one step at a time. */
export function migrateSharePayload(
  payload: RawPayload,
  version: number,
  migrations: readonly ShareMigration[] = SHARE_MIGRATIONS,
): RawPayload {
  let current = payload;
  for (const step of migrations) if (step.from >= version) current = step.migrate(current);
  return current;
}

/** The fragment (without '#'): `p=<version>.<base64url>` and, when a view is given, `&v=<compact view>`. */
export function encodeShareLink(project: Project, view?: ShareView): string {
  const { name, files, layout } = project;
  const payload = layout === undefined ? { name, files } : { name, files, layout };
  const packed = deflateSync(strToU8(JSON.stringify(payload)), { level: 9 });
  const shown = view === undefined ? '' : encodeView(view);
  return `p=${SHARE_LINK_VERSION}.${toBase64Url(packed)}${shown === '' ? '' : `&v=${shown}`}`;
}

/** The whole address: `base` (the app's URL) with that fragment. */
export function shareUrl(base: string, project: Project, view?: ShareView): string {
  const hash = base.indexOf('#');
  return `${hash < 0 ? base : base.slice(0, hash)}#${encodeShareLink(project, view)}`;
}

/** What reading a link gave: the project with the view and what was noted, or why it cannot open. */
export type SharedLink =
  | { ok: true; project: Project; view: ShareView; notes: readonly LoadNote[] }
  | { ok: false; error: string };

const NOT_A_LINK =
  'This is not a PolicyLab link: a shared project’s address has "#p=" followed by the project.';
const CUT_OFF =
  'This link is incomplete: its end was cut off (chat and mail apps sometimes shorten long links). Ask for the whole link, or for the project as a file.';

/** The fragment's `key=value` parts, or undefined when the text holds no link at all. */
function fragmentOf(input: string): Map<string, string> | undefined {
  // A link pasted from a mail or a terminal may be broken over lines or carry spaces.
  const text = input.replace(/\s+/g, '');
  const hash = text.indexOf('#');
  const fragment = hash >= 0 ? text.slice(hash + 1) : text;
  const parts = new Map<string, string>();
  for (const part of fragment.split('&')) {
    const equals = part.indexOf('=');
    if (equals > 0 && !parts.has(part.slice(0, equals)))
      parts.set(part.slice(0, equals), part.slice(equals + 1));
  }
  return parts.has('p') ? parts : undefined;
}

/**
 * Tells whether a text (a fragment, a '#…' fragment or a whole URL) is meant as a share link, so
 * a caller can route it to `decodeShareLink`, which says what is wrong with one that cannot open.
 */
export function isShareLink(input: string): boolean {
  const p = fragmentOf(input)?.get('p');
  return p !== undefined && /^[1-9]\d*(\.|$)/.test(p);
}

/** Reads a fragment, a '#…' fragment or a whole URL. Never throws. */
export function decodeShareLink(input: string): SharedLink {
  try {
    return decode(input);
  } catch (error) {
    // Nothing above is meant to throw; if something does, the page still gets a sentence.
    return fail(
      `This link could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function decode(input: string): SharedLink {
  const { maxLinkChars, maxInflatedBytes } = SHARE_LIMITS;
  if (input.length > maxLinkChars)
    return fail(
      `This link is too long to open: ${input.length.toLocaleString('en')} characters, and PolicyLab opens links of up to ${maxLinkChars.toLocaleString('en')}. Ask for the project as a file instead.`,
    );
  const parts = fragmentOf(input);
  const p = parts?.get('p');
  if (parts === undefined || p === undefined) return fail(NOT_A_LINK);
  const dot = p.indexOf('.');
  const versionText = dot < 0 ? p : p.slice(0, dot);
  if (!/^\d{1,9}$/.test(versionText) || Number(versionText) < 1) return fail(NOT_A_LINK);
  const version = Number(versionText);
  if (version > SHARE_LINK_VERSION)
    return fail(
      `This link was made by a newer PolicyLab (link format ${version}; this one opens formats up to ${SHARE_LINK_VERSION}). Open it in an up-to-date PolicyLab.`,
    );
  if (dot < 0 || dot === p.length - 1) return fail(CUT_OFF);
  const packed = fromBase64Url(p.slice(dot + 1));
  if (!(packed instanceof Uint8Array)) {
    return fail(
      packed.kind === 'length'
        ? 'This link is garbled or cut off: its project part has a length no link can have. Ask for the whole link again.'
        : `This link is garbled: its project part holds "${packed.character}", which a PolicyLab link never has. Ask for the whole link again.`,
    );
  }
  const inflated = inflateBounded(packed, maxInflatedBytes);
  if (!inflated.ok) {
    switch (inflated.problem) {
      case 'too-big':
        return fail(
          `This link’s project is too big to open: it unpacks to more than ${formatBytes(maxInflatedBytes)}, PolicyLab’s limit for a shared project.`,
        );
      case 'truncated':
        return fail(CUT_OFF);
      case 'corrupt':
        return fail(
          'This link is garbled: its project part does not unpack (the data is damaged). Ask for the whole link again.',
        );
    }
  }
  let raw: unknown;
  try {
    raw = JSON.parse(strFromU8(inflated.bytes));
  } catch {
    return fail(
      'This link is garbled: its project unpacks, but not to a project PolicyLab can read. Ask for the whole link again.',
    );
  }
  if (!isPlainObject(raw)) return fail('This link is damaged: it does not hold a project.');
  const read = readPayload(migrateSharePayload(raw, version));
  if ('error' in read) return fail(read.error);
  const { view, skipped } = decodeView(parts.get('v') ?? '');
  const notes = [...read.notes];
  if (skipped.length > 0) {
    const shown = skipped.map(
      (entry) => `"${entry.length > 40 ? `${entry.slice(0, 40)}…` : entry}"`,
    );
    notes.push({
      file: 'bundle',
      message: `The link’s view ${skipped.length === 1 ? 'setting' : 'settings'} ${shown.slice(0, 3).join(', ')}${skipped.length > 3 ? ` and ${skipped.length - 3} more` : ''} could not be read and ${skipped.length === 1 ? 'was' : 'were'} ignored.`,
    });
  }
  return { ok: true, project: read.project, view, notes };
}

/** Checks a payload of the current format and makes the project, noting what it left out. */
function readPayload(
  payload: RawPayload,
): { project: Project; notes: LoadNote[] } | { error: string } {
  const files = payload.files;
  if (!isPlainObject(files)) return { error: 'This link is damaged: its project has no files.' };
  const found: [string, string][] = [];
  for (const [file, text] of Object.entries(files)) {
    if (typeof text === 'string') found.push([file, text]);
    else return { error: `This link is damaged: the file "${file}" in it is not text.` };
  }
  // projectFromFiles cleans the name (normalizeProjectName). fromEntries defines own properties,
  // so a file named "__proto__" is only ever a name.
  const name = typeof payload.name === 'string' ? payload.name : 'Untitled project';
  const loaded = projectFromFiles(name, Object.fromEntries(found));
  const notes = [...loaded.notes];
  if (payload.layout === undefined) return { project: loaded.project, notes };
  const { layout, dropped } = readLayout(payload.layout);
  if (dropped > 0)
    notes.push({
      file: 'bundle',
      message: droppedPositionsNote(dropped),
    });
  return { project: { ...loaded.project, layout }, notes };
}

/** An object JSON made: not an array, not null, not anything with a prototype of its own. */
function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function fail(error: string): SharedLink {
  return { ok: false, error };
}
