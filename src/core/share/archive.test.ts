import { cpuMs } from '../../test/bounded.ts';
import { gunzipSync as nodeGunzip, gzipSync as nodeGzip } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { gzipSync, strToU8, unzipSync, zipSync } from 'fflate';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { simulateRefunds } from '../../test/refundDesk.ts';
import type { Project } from '../project.ts';
import { PROJECT_FILES } from '../project.ts';
import { readLog } from '../sim/logFormat.ts';
import { deflateBomb } from '../testing/deflateBomb.ts';
import { MINI_FILES } from '../testing/miniProject.ts';
import { arbitraryProject } from '../testing/projectArbitraries.ts';
import { ARCHIVE_LIMITS, gunzipLog, gzipLog, unzipProject, zipProject } from './archive.ts';
import { crc32 } from './inflate.ts';

const MINI: Project = { name: 'Refund desk', files: MINI_FILES };
const PLACED: Project = { ...MINI, layout: { 'verify-identity': { x: 1.5, y: -2 } } };
const text = (s: string) => strToU8(s);

/** Overwrites a little-endian number in a copy of the bytes. */
function patched(bytes: Uint8Array, at: number, value: number, width: 2 | 4): Uint8Array {
  const copy = bytes.slice();
  const view = new DataView(copy.buffer);
  if (width === 2) view.setUint16(at, value, true);
  else view.setUint32(at, value, true);
  return copy;
}

/** A copy of a zip with an entry's name changed (to one as long) in both of its headers. */
function renamed(zip: Uint8Array, from: string, to: string): Uint8Array {
  const copy = Buffer.from(zip);
  for (let at = copy.indexOf(from); at >= 0; at = copy.indexOf(from, at + 1)) copy.write(to, at);
  return new Uint8Array(copy);
}

/** Where the central directory entry of the first file starts. */
function directoryOf(zip: Uint8Array): number {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  return view.getUint32(zip.length - 22 + 16, true);
}

function errorOf(read: { ok: true } | { ok: false; error: string }): string {
  if (read.ok) throw new Error('expected a refusal');
  return read.error;
}

describe('zipProject and unzipProject', () => {
  const zone = process.env.TZ;
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('puts the six files and layout.json at the root, readable by any unzip tool', () => {
    const files = unzipSync(zipProject(PLACED));
    expect(Object.keys(files)).toEqual([...PROJECT_FILES.map((f) => f.name), 'layout.json']);
    expect(new TextDecoder().decode(files['agent.md'])).toBe(MINI_FILES['agent.md']);
    expect(JSON.parse(new TextDecoder().decode(files['layout.json']))).toEqual(PLACED.layout);
    expect(Object.keys(unzipSync(zipProject(MINI)))).toHaveLength(6);
  });

  it('gives back the project, and the same bytes when zipped again, for any project', () => {
    fc.assert(
      fc.property(arbitraryProject, (project) => {
        const zip = zipProject(project);
        const read = unzipProject(zip, project.name);
        if (!read.ok) throw new Error(read.error);
        const { layout, files, name } = project;
        const placed = layout && Object.keys(layout).length > 0 ? { layout } : {};
        // A zip holds UTF-8, which has no lone surrogates: each comes back as U+FFFD.
        const utf8 = Object.fromEntries(
          Object.entries(files).map(([file, t]) => [file, new TextDecoder().decode(text(t))]),
        );
        expect(read).toEqual({ ok: true, project: { name, files: utf8, ...placed }, notes: [] });
        expect(Buffer.from(zipProject(read.project)).equals(Buffer.from(zip))).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('writes the same bytes in every time zone', () => {
    process.env.TZ = 'Pacific/Kiritimati';
    const east = zipProject(PLACED);
    process.env.TZ = 'America/Los_Angeles';
    expect(Buffer.from(zipProject(PLACED)).equals(Buffer.from(east))).toBe(true);
  });

  it('reads the files inside one folder, names the project after it, and notes what it left out', () => {
    const zip = zipSync({
      'desk/agent.md': text('# Desk'),
      'desk/rules.yaml': text('checks: []\n'),
      'desk/readme.txt': text('hi'),
      'desk/deeper/policies.yaml': text('x'),
      '__MACOSX/desk/._agent.md': text('junk'),
      'desk/': new Uint8Array(0),
    });
    const read = unzipProject(zip);
    if (!read.ok) throw new Error(read.error);
    expect(read.project.name).toBe('desk');
    expect(read.project.files['agent.md']).toBe('# Desk');
    expect(read.project.files['policies.yaml']).toBe('');
    expect(read.notes.map((n) => n.message)).toEqual([
      'policies.yaml is missing; it is treated as empty.',
      'tools.yaml is missing; it is treated as empty.',
      'database.yaml is missing; it is treated as empty.',
      'scenarios.yaml is missing; it is treated as empty.',
      '2 files in the zip are not part of the project and were left out: "desk/readme.txt", "desk/deeper/policies.yaml".',
    ]);
    expect(unzipProject(zip, 'Given name').ok && unzipProject(zip, 'Given name')).toMatchObject({
      project: { name: 'Given name' },
    });
  });

  it('ignores entries named __proto__, constructor or ../x, and nothing is polluted', () => {
    const zip = zipSync({
      ...Object.fromEntries(PROJECT_FILES.map((f) => [f.name, text(MINI_FILES[f.name])])),
      '../agent.md': text('escaped'),
      '../x': text('x'),
      PROTO_NAM: text('{"polluted": true}'),
      constructor: text('c'),
      '/etc/agent.md': text('abs'),
      'a//agent.md': text('empty segment'),
    });
    // fflate keeps entries in an object, so it cannot write "__proto__": rename one by hand.
    const read = unzipProject(renamed(zip, 'PROTO_NAM', '__proto__'), 'Desk');
    if (!read.ok) throw new Error(read.error);
    expect(read.project).toEqual({ name: 'Desk', files: MINI_FILES });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(read.project.files)).toBe(Object.prototype);
    expect(read.notes.map((n) => n.message)).toEqual([
      '6 files in the zip are not part of the project and were left out: "../agent.md", "../x", "__proto__" and 3 more.',
    ]);
    // Nor is a folder named ".." or "" the project's folder.
    for (const escaped of ['../agent.md', '/agent.md', './agent.md'])
      expect(errorOf(unzipProject(zipSync({ [escaped]: text('x') })))).toMatch(
        /^This zip holds none of the project files/,
      );
  });

  it('reads the layout, noting positions it dropped and a layout.json that is not JSON', () => {
    const withLayout = (layout: string) =>
      unzipProject(zipSync({ 'agent.md': text('a'), 'layout.json': text(layout) }), 'x');
    expect(withLayout('{"a": {"x": 1, "y": 2}, "b": {"x": null}}')).toMatchObject({
      ok: true,
      project: { layout: { a: { x: 1, y: 2 } } },
    });
    expect(withLayout('{"b": {"x": null}}').ok && withLayout('{"b": {"x": null}}')).toMatchObject({
      notes: expect.arrayContaining([
        {
          file: 'bundle',
          message: '1 graph position was not two numbers within ±1,000,000 and was left out.',
        },
      ]) as unknown,
    });
    const broken = withLayout('{');
    expect(broken.ok && broken.project.layout).toBeUndefined();
    expect(broken.ok && broken.notes.at(-1)?.message).toBe(
      'layout.json is not valid JSON; the graph is laid out afresh.',
    );
  });

  it('refuses a zip with none of the files, or with two projects', () => {
    expect(errorOf(unzipProject(zipSync({ 'notes.txt': text('x') })))).toMatch(
      /^This zip holds none of the project files \(agent\.md, policies\.yaml/,
    );
    expect(
      errorOf(unzipProject(zipSync({ 'a/agent.md': text('x'), 'b/rules.yaml': text('y') }))),
    ).toBe('This zip holds more than one project (in "a/", "b/"); zip one project at a time.');
  });

  it('refuses more entries than the cap before reading any', () => {
    const many = Object.fromEntries(
      Array.from({ length: ARCHIVE_LIMITS.maxEntries + 1 }, (_, i) => [`f${i}.txt`, text('')]),
    );
    expect(errorOf(unzipProject(zipSync({ ...many, 'agent.md': text('a') })))).toBe(
      'This zip holds 1,002 entries; PolicyLab opens zips of up to 1,000 (a project is six files).',
    );
  });

  it('refuses files that declare more than the cap, without inflating them', () => {
    const zip = zipSync({ 'agent.md': text('a') });
    // The declared unpacked size of the entry: 1 GiB.
    const declared = patched(zip, directoryOf(zip) + 24, 2 ** 30, 4);
    expect(errorOf(unzipProject(declared))).toBe(
      'This zip’s project files unpack to 1 GiB, more than PolicyLab’s limit of 32 MiB.',
    );
  });

  it('stops inflating an entry at the size it declares: a bomb that lies about its size', () => {
    const bomb = deflateBomb(4_000_000); // about 1 GB of zeros in 6.5 MB
    let zip: Uint8Array = zipSync({ 'agent.md': [bomb, { level: 0 }] });
    const directory = directoryOf(zip);
    zip = patched(zip, 8, 8, 2); // local header: deflate
    zip = patched(zip, directory + 10, 8, 2); // directory: deflate
    zip = patched(zip, directory + 24, 1000, 4); // directory: 1,000 bytes unpacked
    // Inflating the whole gigabyte takes seconds of CPU; stopping at 1,000 bytes takes none.
    const { ms, value } = cpuMs(() => errorOf(unzipProject(zip)));
    expect(value).toBe(
      'This zip is damaged: "agent.md" unpacks to more than the 1,000 bytes it declares.',
    );
    expect(ms).toBeLessThan(1000);
  });

  it('says what is wrong with garbage, a cut-off zip, damaged data or an unknown method', () => {
    expect(errorOf(unzipProject(text('PK not really a zip')))).toBe(
      'This is not a zip file, or its end is missing.',
    );
    const zip = zipProject(MINI);
    expect(errorOf(unzipProject(zip.subarray(0, zip.length - 30)))).toBe(
      'This is not a zip file, or its end is missing.',
    );
    // The start cut off: the table of contents points past the data.
    expect(errorOf(unzipProject(zip.subarray(200)))).toMatch(/^This zip is damaged/);
    const flipped = zip.slice();
    flipped[40] = (flipped[40] ?? 0) ^ 0xff;
    expect(errorOf(unzipProject(flipped))).toMatch(/^This zip is damaged: "agent\.md"/);
    const stored = zipSync({ 'agent.md': [text('hello'), { level: 0 }] });
    // A changed byte in a stored file: the same size, another text; only the checksum tells.
    expect(errorOf(unzipProject(renamed(stored, 'hello', 'jello')))).toBe(
      'This zip is damaged: "agent.md" does not hold what its checksum says.',
    );
    expect(errorOf(unzipProject(patched(stored, directoryOf(stored) + 10, 12, 2)))).toBe(
      '"agent.md" in this zip is compressed in a way PolicyLab does not read (method 12); zip it again with ordinary (deflate) compression.',
    );
    expect(errorOf(unzipProject(patched(stored, directoryOf(stored) + 8, 1, 2)))).toBe(
      '"agent.md" in this zip is encrypted; PolicyLab cannot read it.',
    );
  });
});

describe('gzipLog and gunzipLog', () => {
  it('gives back the log readLog reads, in the same bytes every time, readable by gzip', async () => {
    const { events } = await simulateRefunds();
    const gz = gzipLog(events);
    expect(Buffer.from(gzipLog(events)).equals(Buffer.from(gz))).toBe(true);
    expect(gz.subarray(4, 8)).toEqual(new Uint8Array(4)); // no time in the header
    const read = gunzipLog(gz);
    if (!read.ok) throw new Error(read.error);
    expect(readLog(read.raw)).toMatchObject({ ok: true, events });
    expect(JSON.parse(nodeGunzip(gz).toString('utf8'))).toEqual(events);
  });

  it('reads a gzipped events.jsonl, and files other gzip tools wrote (with a file name)', async () => {
    const { events } = await simulateRefunds();
    const jsonl = `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
    expect(gunzipLog(nodeGzip(jsonl))).toEqual({ ok: true, raw: events });
    const named = gzipSync(text(JSON.stringify(events)), { filename: 'run.json', mtime: 1 });
    expect(gunzipLog(named)).toEqual({ ok: true, raw: events });
  });

  it('says what is wrong with garbage, a cut-off file, damaged data or text that is not a log', () => {
    const gz = nodeGzip(JSON.stringify([{ type: 'run-started' }]).repeat(1));
    expect(errorOf(gunzipLog(text('[]')))).toBe('This is not a gzip file.');
    expect(errorOf(gunzipLog(gz.subarray(0, 12)))).toBe('This gzip file is cut short.');
    for (const cut of [1, 8, 10]) {
      expect(errorOf(gunzipLog(gz.subarray(0, gz.length - cut)))).toBe(
        'This gzip file is cut short.',
      );
    }
    const garbled = new Uint8Array(gz);
    garbled[10] = 0xff; // block type 3, which does not exist
    expect(errorOf(gunzipLog(garbled))).toBe('This gzip file is damaged: it does not unpack.');
    const badCrc = new Uint8Array(gz);
    badCrc[gz.length - 6] = (badCrc[gz.length - 6] ?? 0) ^ 1;
    expect(errorOf(gunzipLog(badCrc))).toBe(
      'This gzip file is damaged: it does not hold what its checksum says.',
    );
    expect(errorOf(gunzipLog(nodeGzip('[{"type": ')))).toMatch(
      /^The log in this gzip file is not valid JSON: /,
    );
    expect(errorOf(gunzipLog(nodeGzip('{"a": 1}\nnot json\n')))).toMatch(
      /^The log in this gzip file is neither a JSON list nor one event per line: line 2 is not JSON/,
    );
  });

  it('stops a gzip bomb at the cap', () => {
    const body = deflateBomb(40_000); // about 10 MB of zeros
    const header = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
    const trailer = new Uint8Array(8);
    new DataView(trailer.buffer).setUint32(0, crc32(new Uint8Array(1 + 258 * 40_000)), true);
    new DataView(trailer.buffer).setUint32(4, 1 + 258 * 40_000, true);
    const bomb = Buffer.concat([header, body, trailer]);
    expect(errorOf(gunzipLog(bomb, 1024 * 1024))).toBe(
      'This gzip file cannot be opened: it unpacks to more than 1 MiB, PolicyLab’s limit for a run’s log.',
    );
    // Under a cap it fits, it is a well-formed gzip of zeros (so the refusal above is the cap's).
    expect(errorOf(gunzipLog(bomb))).toMatch(/^The log in this gzip file/);
    expect(nodeGunzip(bomb)).toHaveLength(1 + 258 * 40_000);
  });
});

describe('reading damaged archives', () => {
  /**
   * Bytes with some of them changed (often in the headers and the table of contents at the end,
   * where the sizes and offsets are) and maybe the end cut off.
   */
  const damaged = (bytes: Uint8Array) => {
    const n = bytes.length;
    const place = fc.oneof(
      fc.nat({ max: n - 1 }),
      fc.integer({ min: Math.max(0, n - 400), max: n - 1 }),
      fc.integer({ min: 0, max: Math.min(n - 1, 40) }),
    );
    const value = fc.oneof(fc.nat({ max: 255 }), fc.constantFrom(0, 0xff, 0x7f, 0x80));
    return fc
      .tuple(
        fc.oneof(fc.constant(n), fc.nat({ max: n })),
        fc.array(fc.tuple(place, value), { minLength: 1, maxLength: 6 }),
      )
      .map(([keep, changes]) => {
        const copy = bytes.slice();
        for (const [at, v] of changes) copy[at] = v;
        return copy.slice(0, keep);
      });
  };

  it('never throws: a zip or a gzip file changed anywhere is read or refused in words', () => {
    const zip = zipProject(PLACED);
    const gz = gzipLog([]);
    fc.assert(
      fc.property(damaged(zip), (bytes) => {
        const read = unzipProject(bytes);
        expect(read.ok || read.error.length > 10).toBe(true);
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.oneof(damaged(gz), fc.uint8Array({ maxLength: 64 })), (bytes) => {
        const read = gunzipLog(bytes);
        expect(read.ok || read.error.length > 10).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('the airline example', () => {
  it('zips and unzips whole', () => {
    const files = Object.fromEntries(
      PROJECT_FILES.map((f) => [f.name, readFileSync(`public/examples/airline/${f.name}`, 'utf8')]),
    ) as Project['files'];
    const airline: Project = { name: 'airline', files };
    expect(unzipProject(zipProject(airline), 'airline')).toEqual({
      ok: true,
      project: airline,
      notes: [],
    });
  });
});
