import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Project } from '../core/index.ts';
import {
  PROJECT_FILES,
  decodeShareLink,
  encodeShareLink,
  toBundle,
  zipProject,
} from '../core/index.ts';
import { deflateBomb } from '../core/testing/deflateBomb.ts';
import { MINI_FILES } from '../core/testing/miniProject.ts';
import { EXIT, runCli } from './main.ts';

function capture(argv: string[]) {
  let out = '';
  let err = '';
  const code = runCli(argv, '9.8.7', {
    out: (t) => (out += t),
    err: (t) => (err += t),
  });
  return { code, out, err };
}

const tmp = () => mkdtempSync(path.join(tmpdir(), 'policylab-share-'));

const LAYOUT = { 'verify-identity': { x: 10, y: -20.5 } };
const DESK: Project = { name: 'desk', files: MINI_FILES };
const PLACED: Project = { ...DESK, layout: LAYOUT };

/** A folder named "desk" holding the mini project's files, and a layout.json when given one. */
function deskFolder(layout?: string): string {
  const dir = path.join(tmp(), 'desk');
  mkdirSync(dir);
  for (const file of PROJECT_FILES) writeFileSync(path.join(dir, file.name), MINI_FILES[file.name]);
  if (layout !== undefined) writeFileSync(path.join(dir, 'layout.json'), layout);
  return dir;
}

/** The files of a folder by name, as text. */
function filesIn(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((name) => [name, readFileSync(path.join(dir, name), 'utf8')]),
  );
}

const sixFiles = (files: Project['files']) =>
  Object.fromEntries(PROJECT_FILES.map((f) => [f.name, files[f.name]]));

describe('policylab share', () => {
  it('prints a link to policylab.app that opens the folder’s project, with its layout', () => {
    const { code, out, err } = capture(['share', deskFolder(JSON.stringify(LAYOUT))]);
    expect({ code, err }).toEqual({ code: EXIT.ok, err: '' });
    expect(out).toMatch(/^https:\/\/policylab\.app\/#p=1\.[A-Za-z0-9_-]+\n$/);
    expect(decodeShareLink(out.trim())).toEqual({ ok: true, project: PLACED, view: {}, notes: [] });
  });

  it('points the link at --base, and notes a long link', () => {
    const { code, out, err } = capture([
      'share',
      'public/examples/airline',
      '--base',
      'http://localhost:5173/policylab/',
    ]);
    expect(code).toBe(EXIT.ok);
    expect(out).toMatch(/^http:\/\/localhost:5173\/policylab\/#p=1\./);
    expect(err).toMatch(/^note: the link is [\d,]+ characters long; chat and mail apps may cut it/);
    const read = decodeShareLink(out.trim());
    expect(read.ok && read.project.name).toBe('airline');
  });

  it('says what is wrong with --base, the folder or its layout.json', () => {
    for (const base of ['policylab.app', 'ftp://x/', 'https://a b/']) {
      const { code, out, err } = capture(['share', deskFolder(), '--base', base]);
      expect({ code, out }).toEqual({ code: EXIT.usage, out: '' });
      expect(err).toBe(
        `policylab: --base must be a web address such as https://policylab.app/, not "${base}".\n`,
      );
    }
    expect(capture(['share', 'no/such/folder']).err).toBe(
      'policylab: no/such/folder: no such file or folder.\n',
    );
    const broken = capture([
      'share',
      deskFolder('{"verify-identity": {"x": 1}, "a": {"x": 1, "y": 2}'),
    ]);
    expect(broken.code).toBe(EXIT.ok);
    expect(broken.err).toBe('note: layout.json is not valid JSON; the graph is laid out afresh.\n');
    const dropped = capture([
      'share',
      deskFolder('{"verify-identity": {"x": 1}, "a": {"x": 1, "y": 2}}'),
    ]);
    expect(dropped.err).toBe(
      'note: 1 graph position was in layout.json not two numbers within ±1,000,000 and was left out.\n',
    );
    const read = decodeShareLink(dropped.out.trim());
    expect(read.ok && read.project.layout).toEqual({ a: { x: 1, y: 2 } });
  });

  it('refuses a project too big to open as a link', () => {
    const dir = deskFolder();
    // 17.5 MB of text in two files (each under the 12 MB a file may be): a short link, but more
    // than a link may unpack to.
    const noise = 'refund '.repeat(1_250_000);
    writeFileSync(path.join(dir, 'agent.md'), noise);
    writeFileSync(path.join(dir, 'database.yaml'), `# ${noise}\n`);
    const { code, out, err } = capture(['share', dir]);
    expect({ code, out }).toEqual({ code: EXIT.usage, out: '' });
    expect(err).toMatch(
      /cannot be shared as a link: This link’s project is too big to open: it unpacks to more than 16 MiB, .* Send it as a zip or a bundle instead\.\n$/,
    );
  });
});

describe('policylab open', () => {
  it('writes the six files and layout.json from a link, a whole URL with a view, a bundle or a zip', () => {
    const dir = tmp();
    const bundle = path.join(dir, 'desk.policylab.json');
    writeFileSync(bundle, toBundle(PLACED));
    const zip = path.join(dir, 'desk.zip');
    writeFileSync(zip, zipProject(PLACED));
    const expected = {
      ...sixFiles(MINI_FILES),
      'layout.json': `${JSON.stringify(LAYOUT, null, 2)}\n`,
    };
    for (const input of [
      encodeShareLink(PLACED),
      `https://policylab.app/#${encodeShareLink(PLACED, { policy: 'refund-window' })}`,
      bundle,
      zip,
    ]) {
      const out = path.join(tmp(), 'opened', 'here');
      const result = capture(['open', input, '--out', out]);
      expect(result).toEqual({
        code: EXIT.ok,
        out: `Wrote "desk" to ${out}: ${[...PROJECT_FILES.map((f) => f.name), 'layout.json'].join(', ')}.\n`,
        err: '',
      });
      expect(filesIn(out)).toEqual(expected);
    }
  });

  it('shares what it opened as the same link', () => {
    const link = encodeShareLink(PLACED);
    const out = path.join(tmp(), 'desk');
    expect(capture(['open', link, '--out', out]).code).toBe(EXIT.ok);
    expect(capture(['share', out, '--base', 'https://x.test/']).out).toBe(
      `https://x.test/#${link}\n`,
    );
  });

  it('writes into a folder that is not empty only with --force, and keeps the other files', () => {
    const out = tmp();
    writeFileSync(path.join(out, 'notes.txt'), 'mine');
    writeFileSync(path.join(out, 'agent.md'), 'old prompt');
    writeFileSync(path.join(out, 'layout.json'), '{"old": {"x": 1, "y": 1}}');
    const refused = capture(['open', encodeShareLink(DESK), '--out', out]);
    expect(refused).toEqual({
      code: EXIT.usage,
      out: '',
      err: `policylab: ${out} is not empty. Choose a new folder, or add --force to write the project's files into it (files of the same names are replaced).\n`,
    });
    expect(readFileSync(path.join(out, 'agent.md'), 'utf8')).toBe('old prompt');
    expect(capture(['open', encodeShareLink(DESK), '--out', out, '--force']).code).toBe(EXIT.ok);
    // The old layout.json is gone: it would have been read as this project's.
    expect(filesIn(out)).toEqual({ ...sixFiles(MINI_FILES), 'notes.txt': 'mine' });
  });

  it('notes what the input left out', () => {
    const out = path.join(tmp(), 'x');
    const { code, err } = capture(['open', `#${encodeShareLink(DESK)}&v=zoom:3`, '--out', out]);
    expect(code).toBe(EXIT.ok);
    expect(err).toBe('note: The link’s view setting "zoom:3" could not be read and was ignored.\n');
  });

  it('says what is wrong with the input, the folder or the command line', () => {
    const dir = tmp();
    const file = path.join(dir, 'a-file');
    writeFileSync(file, 'hello');
    const bombZip = path.join(dir, 'bomb.zip');
    writeFileSync(bombZip, Buffer.from([0x50, 0x4b, 3, 4, 0, 0]));
    const out = path.join(dir, 'out');
    const cases: [string[], string][] = [
      [['open', 'p=1.AAA!', '--out', out], 'This link is garbled: its project part holds "!"'],
      [
        ['open', `p=1.${Buffer.from(deflateBomb(200_000)).toString('base64url')}`, '--out', out],
        'it unpacks to more than 16 MiB',
      ],
      [['open', 'https://policylab.app/', '--out', out], 'This is not a PolicyLab link'],
      [['open', `p=9.${'A'.repeat(8)}`, '--out', out], 'made by a newer PolicyLab (link format 9;'],
      [
        ['open', path.join(dir, 'nothing.zip'), '--out', out],
        'nothing.zip: no such file or folder.',
      ],
      [
        ['open', dir, '--out', out],
        'is a folder; open reads a share link, a *.policylab.json bundle or a zip.',
      ],
      [['open', file, '--out', out], `${file}: This bundle is not valid JSON`],
      [
        ['open', bombZip, '--out', out],
        `${bombZip}: This is not a zip file, or its end is missing.`,
      ],
      [['open', encodeShareLink(DESK), '--out', file], `${file} is a file, not a folder.`],
      [['open', encodeShareLink(DESK)], '"open" needs --out <folder>.'],
      [['open'], '"open" needs a link or a path.'],
      [
        ['open', encodeShareLink(DESK), '--out', out, '--base', 'x'],
        '--base does not apply to "open".',
      ],
      [['share', 'public/examples/airline', '--force'], '--force does not apply to "share".'],
    ];
    for (const [argv, message] of cases) {
      const { code, out: printed, err } = capture(argv);
      expect({ argv: argv.slice(0, 1), code, printed }).toEqual({
        argv: argv.slice(0, 1),
        code: EXIT.usage,
        printed: '',
      });
      expect(err).toContain(message);
    }
    expect(readdirSync(dir).sort()).toEqual(['a-file', 'bomb.zip']);
  });
});

describe('share and open through the real binary', () => {
  it('passes a whole URL with its view through the shell’s argument list', async () => {
    const run = (args: string[]) =>
      promisify(execFile)(process.execPath, ['bin/policylab.js', ...args]);
    const { stdout: link } = await run(['share', deskFolder(JSON.stringify(LAYOUT))]);
    const out = path.join(tmp(), 'desk');
    const { stdout } = await run(['open', `${link.trim()}&v=m:graph`, '--out', out]);
    expect(stdout).toMatch(/^Wrote "desk" to /);
    expect(filesIn(out)['layout.json']).toBe(`${JSON.stringify(LAYOUT, null, 2)}\n`);
  });
});
