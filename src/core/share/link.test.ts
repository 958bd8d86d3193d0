import { readFileSync } from 'node:fs';
import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { Project } from '../project.ts';
import { PROJECT_FILES } from '../project.ts';
import { projectFromFiles } from '../bundle.ts';
import { MINI_FILES } from '../testing/miniProject.ts';
import { deflateBomb } from '../testing/deflateBomb.ts';
import { fromBase64Url, toBase64Url } from './base64url.ts';
import type { ShareView } from './link.ts';
import {
  SHARE_LIMITS,
  SHARE_LINK_VERSION,
  SHARE_MIGRATIONS,
  decodeShareLink,
  encodeShareLink,
  isShareLink,
  migrateSharePayload,
  shareUrl,
} from './link.ts';

const AIRLINE: Project = {
  ...projectFromFiles(
    'Airline',
    Object.fromEntries(
      PROJECT_FILES.map((f) => [f.name, readFileSync(`public/examples/airline/${f.name}`, 'utf8')]),
    ),
  ).project,
  layout: { 'cancel-within-24-hours': { x: 12.5, y: -40 } },
};

const MINI: Project = { name: 'Refund desk', files: MINI_FILES };

/** A link whose project part is this text (JSON or not), deflated as the encoder does. */
const linkOf = (payload: string, version = SHARE_LINK_VERSION) =>
  `p=${version}.${toBase64Url(deflateSync(strToU8(payload)))}`;

/** The JSON a link carries, unpacked by hand. */
function payloadOf(fragment: string): unknown {
  const packed = fromBase64Url(/^p=\d+\.([^&]*)/.exec(fragment)?.[1] ?? '');
  if (!(packed instanceof Uint8Array)) throw new Error('not base64url');
  return JSON.parse(strFromU8(inflateSync(packed)));
}

function errorOf(input: string): string {
  const read = decodeShareLink(input);
  if (read.ok) throw new Error('expected a refusal');
  return read.error;
}

describe('a share link', () => {
  it('opens the airline example as it was, with its layout and view, noting nothing', () => {
    const view: ShareView = {
      maximize: 'graph',
      policy: 'cancel-within-24-hours',
      sample: ['a', 'b'],
    };
    const url = shareUrl('https://policylab.app/', AIRLINE, view);
    expect(url).toMatch(
      /^https:\/\/policylab\.app\/#p=1\.[A-Za-z0-9_-]+&v=m:graph,p:cancel-within-24-hours,s:a,s:b$/,
    );
    expect(decodeShareLink(url)).toEqual({ ok: true, project: AIRLINE, view, notes: [] });
  });

  it('carries exactly the name, the six files and the layout: nothing else can get in', () => {
    const payload = payloadOf(encodeShareLink(AIRLINE)) as Record<string, Record<string, unknown>>;
    expect(Object.keys(payload)).toEqual(['name', 'files', 'layout']);
    expect(Object.keys(payload.files ?? {})).toEqual(PROJECT_FILES.map((f) => f.name));
    // A project object carrying more than a project (say, settings) still shares only the project.
    const extra = { ...MINI, settings: { apiKey: 'sk-secret' } } as Project;
    expect(Object.keys(payloadOf(encodeShareLink(extra)) as object)).toEqual(['name', 'files']);
  });

  it('reads a fragment, a #fragment, a whole URL, and one broken over lines', () => {
    const fragment = encodeShareLink(MINI, { search: 'refund' });
    const expected = { ok: true, project: MINI, view: { search: 'refund' }, notes: [] };
    for (const input of [
      fragment,
      `#${fragment}`,
      `https://example.org/policylab/?x=1#${fragment}`,
      ` ${fragment.slice(0, 30)}\n  ${fragment.slice(30)} \n`,
    ]) {
      expect(decodeShareLink(input)).toEqual(expected);
      expect(isShareLink(input)).toBe(true);
    }
  });

  it('puts the link in place of any fragment the base address had', () => {
    expect(shareUrl('https://policylab.app/#old', MINI)).toBe(
      `https://policylab.app/#${encodeShareLink(MINI)}`,
    );
  });

  it('keeps opening links of format 1', () => {
    const link = readFileSync('src/core/share/testdata/link-v1.txt', 'utf8');
    const expected = JSON.parse(readFileSync('src/core/share/testdata/link-v1.json', 'utf8')) as {
      project: Project;
      view: ShareView;
    };
    expect(decodeShareLink(link)).toEqual({ ok: true, ...expected, notes: [] });
  });

  it('has one migration per format version, and runs the steps from the link’s version up, in order', () => {
    expect(SHARE_MIGRATIONS.map((m) => m.from)).toEqual(
      Array.from({ length: SHARE_LINK_VERSION - 1 }, (_, i) => i + 1),
    );
    const steps = [1, 2, 3].map((from) => ({
      from,
      change: `step ${from}`,
      migrate: (p: Readonly<Record<string, unknown>>) => ({
        ...p,
        trail: `${String(p.trail)}>${from + 1}`,
      }),
    }));
    expect(migrateSharePayload({ trail: 'v1' }, 1, steps)).toEqual({ trail: 'v1>2>3>4' });
    expect(migrateSharePayload({ trail: 'v3' }, 3, steps)).toEqual({ trail: 'v3>4' });
    expect(migrateSharePayload({ trail: 'v4' }, 4, steps)).toEqual({ trail: 'v4' });
  });

  it('notes files that are not part of a project, fills missing ones, and cleans the name', () => {
    const read = decodeShareLink(
      linkOf(
        JSON.stringify({
          name: '  Refund \n desk ',
          files: { 'agent.md': '# Hi', 'notes.txt': 'x' },
        }),
      ),
    );
    if (!read.ok) throw new Error(read.error);
    expect(read.project.name).toBe('Refund desk');
    expect(read.project.files['agent.md']).toBe('# Hi');
    expect(read.project.files['rules.yaml']).toBe('');
    expect(read.notes.map((n) => n.message)).toContain(
      '"notes.txt" is not a project file and was left out.',
    );
    expect(read.notes.map((n) => n.message)).toContain(
      'rules.yaml is missing; it is treated as empty.',
    );
  });

  it('keeps the graph positions that are two numbers and says how many it dropped', () => {
    const layout = { a: { x: 1, y: 2 }, b: { x: 'left', y: 2 }, c: [1, 2] };
    const read = decodeShareLink(linkOf(JSON.stringify({ name: 'x', files: MINI_FILES, layout })));
    expect(read).toMatchObject({
      ok: true,
      project: { layout: { a: { x: 1, y: 2 } } },
      notes: [
        { message: '2 graph positions were not two numbers within ±1,000,000 and were left out.' },
      ],
    });
  });

  it('cannot pollute any prototype, whatever keys it holds', () => {
    const hostile = `{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 2}},
      "name": "x", "files": {"__proto__": {"polluted": 3}, "constructor": "c", "agent.md": "a"},
      "layout": {"__proto__": {"x": 1, "y": 2}, "constructor": {"x": 3, "y": 4}}}`;
    // A file named "__proto__" holding an object is not text: the whole link is refused.
    expect(errorOf(linkOf(hostile))).toBe(
      'This link is damaged: the file "__proto__" in it is not text.',
    );
    const read = decodeShareLink(linkOf(hostile.replace('{"polluted": 3}', '"p"')));
    if (!read.ok) throw new Error(read.error);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(read.project)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(read.project.files)).toBe(Object.prototype);
    expect(Object.keys(read.project.files)).toEqual(PROJECT_FILES.map((f) => f.name));
    expect(Object.getPrototypeOf(read.project.layout)).toBe(Object.prototype);
    expect(Object.keys(read.project.layout ?? {})).toEqual(['__proto__', 'constructor']);
    expect(read.notes.map((n) => n.message)).toEqual(
      expect.arrayContaining([
        '"__proto__" is not a project file and was left out.',
        '"constructor" is not a project file and was left out.',
      ]),
    );
  });

  it('still opens the project when its view part is damaged, and says so', () => {
    const read = decodeShareLink(`${encodeShareLink(MINI)}&v=p:ok,q:%E0%A4%A,zoom:3,m:tiles`);
    expect(read).toMatchObject({ ok: true, project: MINI, view: { policy: 'ok' } });
    expect(read.ok && read.notes.map((n) => n.message)).toEqual([
      'The link’s view settings "q:%E0%A4%A", "zoom:3", "m:tiles" could not be read and were ignored.',
    ]);
  });

  it('writes a lone surrogate in the view as U+FFFD rather than throwing', () => {
    const read = decodeShareLink(encodeShareLink(MINI, { search: 'a\uD800b' }));
    expect(read.ok && read.view).toEqual({ search: 'a\uFFFDb' });
  });
});

describe('a link that cannot open says why', () => {
  const good = encodeShareLink(AIRLINE);

  it('is not a link', () => {
    for (const input of ['', 'hello', 'https://policylab.app/', '#q=1', 'p=abc.def', 'p=0.aaaa']) {
      expect(errorOf(input)).toMatch(/^This is not a PolicyLab link/);
      expect(isShareLink(input)).toBe(false);
    }
  });

  it('was cut off', () => {
    expect(errorOf(good.slice(0, 1000))).toMatch(/^This link is incomplete: its end was cut off/);
    expect(errorOf('p=1.')).toMatch(/^This link is incomplete/);
    expect(errorOf(good.slice(0, 1001))).toMatch(/^This link is garbled or cut off/);
  });

  it('is garbled: a stray character, data that is not deflate, or not a project', () => {
    expect(errorOf(`${good.slice(0, 500)}!${good.slice(501)}`)).toBe(
      'This link is garbled: its project part holds "!", which a PolicyLab link never has. Ask for the whole link again.',
    );
    expect(errorOf(`p=1.${toBase64Url(new Uint8Array([0xff, 0xff, 0xff, 0xff]))}`)).toMatch(
      /^This link is garbled: its project part does not unpack/,
    );
    expect(errorOf(linkOf('{"name": "x", "files": '))).toMatch(
      /^This link is garbled: its project unpacks, but not/,
    );
    expect(errorOf(linkOf('[1, 2]'))).toBe('This link is damaged: it does not hold a project.');
    expect(errorOf(linkOf('{"name": "x"}'))).toBe(
      'This link is damaged: its project has no files.',
    );
    expect(errorOf(linkOf('{"name": "x", "files": ["a"]}'))).toBe(
      'This link is damaged: its project has no files.',
    );
    expect(errorOf(linkOf('{"files": {"agent.md": 3}}'))).toBe(
      'This link is damaged: the file "agent.md" in it is not text.',
    );
  });

  it('comes from a newer PolicyLab, and says which format', () => {
    expect(errorOf(linkOf('{}', SHARE_LINK_VERSION + 1))).toBe(
      `This link was made by a newer PolicyLab (link format ${SHARE_LINK_VERSION + 1}; this one opens formats up to ${SHARE_LINK_VERSION}). Open it in an up-to-date PolicyLab.`,
    );
    expect(errorOf('https://policylab.app/#p=7')).toMatch(/link format 7;/);
    expect(isShareLink('https://policylab.app/#p=7')).toBe(true);
  });

  it('is too long, refused before anything is unpacked', () => {
    const long = `p=1.${'A'.repeat(SHARE_LIMITS.maxLinkChars)}`;
    expect(errorOf(long)).toBe(
      'This link is too long to open: 2,000,004 characters, and PolicyLab opens links of up to 2,000,000. Ask for the project as a file instead.',
    );
    expect(isShareLink(long)).toBe(true);
  });

  it('unpacks to too much: a deflate bomb is refused', () => {
    // 1.3 MB of link that would unpack to about 1 GB.
    const bomb = `p=1.${toBase64Url(deflateBomb(700_000))}`;
    expect(bomb.length).toBeLessThan(SHARE_LIMITS.maxLinkChars);
    expect(errorOf(bomb)).toBe(
      'This link’s project is too big to open: it unpacks to more than 16 MiB, PolicyLab’s limit for a shared project.',
    );
  });
});
