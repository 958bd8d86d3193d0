import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT, runCli } from './main.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const testdata = path.join(root, 'src', 'core', 'import', 'testdata');
const LIBRARY = path.join(testdata, 'tau2-library');
const GYM = path.join(testdata, 'intellagent-gym');
const SHARED = path.resolve(root, '..', 'shared');
const SHARED_TAU2 = path.join(SHARED, 'tau2', 'retail');
const SHARED_INTELLAGENT = path.join(SHARED, 'intellagent', 'retail', 'input');

function capture(argv: string[]) {
  let out = '';
  let err = '';
  const code = runCli(argv, '9.8.7', { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

const tmp = () => mkdtempSync(path.join(tmpdir(), 'policylab-import-'));
const SIX = [
  'agent.md',
  'database.yaml',
  'policies.yaml',
  'rules.yaml',
  'scenarios.yaml',
  'tools.yaml',
];

describe('policylab import', () => {
  it('imports a tau2 domain folder, writes the six files and prints what it left out', () => {
    const out = path.join(tmp(), 'library');
    const { code, out: text, err } = capture(['import', 'tau2', LIBRARY, '--out', out]);
    expect(err).toBe('');
    expect(code).toBe(EXIT.ok);
    expect(readdirSync(out).sort()).toEqual(SIX);
    expect(text).toContain('Imported tau2-bench domain "tau2-library"');
    expect(text).toContain(
      '5 tools, 3 tables (books 2 rows, members 12 rows, loans 12 rows), 2 tasks.',
    );
    expect(text).toMatch(
      /- tool lend_book: "No copy of \{book_id\} left" names values of the call/,
    );
    expect(text).toContain('policylab check: 0 errors');
    expect(capture(['check', out]).code).toBe(EXIT.ok);
  });

  it('finds a domain in a tau2-bench checkout with --domain', () => {
    const checkout = tmp();
    const src = path.join(checkout, 'src', 'tau2', 'domains', 'library');
    const data = path.join(checkout, 'data', 'tau2', 'domains', 'library');
    mkdirSync(src, { recursive: true });
    mkdirSync(data, { recursive: true });
    cpSync(path.join(LIBRARY, 'src'), src, { recursive: true });
    cpSync(path.join(LIBRARY, 'data'), data, { recursive: true });
    // tau2's telecom calls its policy main_policy.md.
    renameSync(path.join(data, 'policy.md'), path.join(data, 'main_policy.md'));
    const out = path.join(tmp(), 'x');
    const ok = capture(['import', 'tau2', checkout, '--domain', 'library', '--out', out]);
    expect(ok.code).toBe(EXIT.ok);
    expect(ok.out).toContain('domain "library"');
    expect(ok.out).not.toContain('Not found');
    expect(readFileSync(path.join(out, 'agent.md'), 'utf8')).toContain('# Library desk policy');
    expect(ok.out).toContain(
      '5 tools, 3 tables (books 2 rows, members 12 rows, loans 12 rows), 2 tasks.',
    );
    const missing = capture([
      'import',
      'tau2',
      checkout,
      '--domain',
      'airline',
      '--out',
      path.join(tmp(), 'y'),
    ]);
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.err).toContain('has no domain "airline"');
  });

  it('imports an IntellAgent input folder, and --json gives the report as data', () => {
    const out = path.join(tmp(), 'gym');
    const { code, out: text } = capture(['import', 'intellagent', GYM, '--out', out, '--json']);
    expect(code).toBe(EXIT.ok);
    const report = JSON.parse(text) as {
      domain: { tools: number };
      notRead: unknown[];
      notCarried: Array<{ item: string }>;
      check: { counts: { error: number } };
    };
    expect(report.domain.tools).toBe(2);
    expect(report.notRead).toHaveLength(2);
    expect(report.notCarried.map((n) => n.item)).toContain('tool book_class');
    expect(report.check.counts.error).toBe(0);
  });

  it('says where on disk each item it could not read is', () => {
    const { out: text } = capture(['import', 'intellagent', GYM, '--out', tmp()]);
    expect(text).toContain(
      `- tools/broken.py: Broken.get_info: It does not return a plain {"type": "function", "function": {...}} literal; the tool is left out. (${path.join(GYM, 'tools', 'broken.py')}:3)`,
    );
  });

  it('refuses a wrong command line, a missing folder and a folder that is not empty', () => {
    expect(capture(['import', 'tau3', LIBRARY, '--out', tmp()]).err).toContain(
      'unknown source "tau3"',
    );
    expect(capture(['import', 'tau2', LIBRARY]).err).toContain('needs --out');
    expect(capture(['import', 'intellagent', GYM, '--domain', 'x', '--out', tmp()]).code).toBe(
      EXIT.usage,
    );
    expect(capture(['import', 'tau2', path.join(tmp(), 'nothing'), '--out', tmp()]).err).toContain(
      'is not a folder',
    );
    const empty = tmp();
    expect(capture(['import', 'tau2', empty, '--out', tmp()]).err).toContain(
      "none of a tau2 domain's files",
    );
    const full = tmp();
    writeFileSync(path.join(full, 'keep.txt'), 'mine');
    const refused = capture(['import', 'tau2', LIBRARY, '--out', full]);
    expect(refused.code).toBe(EXIT.usage);
    expect(refused.err).toContain('is not empty');
    expect(readFileSync(path.join(full, 'keep.txt'), 'utf8')).toBe('mine');
    expect(capture(['import', 'tau2', LIBRARY, '--out', full, '--force']).code).toBe(EXIT.ok);
    expect(capture(['import', '--help']).out).toContain('policylab import tau2 <folder>');
  });

  it('never follows a link out of the domain’s folder, a file’s or a folder’s; a link inside is read', () => {
    const elsewhere = tmp();
    const copy = () => {
      const domain = path.join(tmp(), 'library');
      cpSync(LIBRARY, domain, { recursive: true });
      return domain;
    };
    const refusedWith = (domain: string, message: string) => {
      const out = path.join(tmp(), 'out');
      const { code, err } = capture(['import', 'tau2', domain, '--out', out]);
      expect(code).toBe(EXIT.usage);
      expect(err).toContain(message);
      expect(existsSync(out)).toBe(false);
    };

    const file = copy();
    const secret = path.join(elsewhere, 'tools.py');
    cpSync(path.join(file, 'src', 'tools.py'), secret);
    rmSync(path.join(file, 'src', 'tools.py'));
    symlinkSync(secret, path.join(file, 'src', 'tools.py'));
    refusedWith(
      file,
      `src/tools.py is a link to ${realpathSync(secret)}, outside the domain's folder`,
    );

    const folder = copy();
    const data = path.join(elsewhere, 'data');
    renameSync(path.join(folder, 'data'), data);
    symlinkSync(data, path.join(folder, 'data'));
    refusedWith(folder, `data/ is a link to ${realpathSync(data)}, outside the domain's folder`);

    const inside = copy();
    renameSync(path.join(inside, 'data', 'policy.md'), path.join(inside, 'policy-text.md'));
    symlinkSync(path.join('..', 'policy-text.md'), path.join(inside, 'data', 'policy.md'));
    const out = path.join(tmp(), 'out');
    expect(capture(['import', 'tau2', inside, '--out', out]).code).toBe(EXIT.ok);
    expect(readFileSync(path.join(out, 'agent.md'), 'utf8')).toContain(
      readFileSync(path.join(inside, 'policy-text.md'), 'utf8').split('\n')[0] ?? '',
    );
  });

  it('refuses a file past the page’s size limit before reading it', () => {
    const domain = path.join(tmp(), 'library');
    cpSync(LIBRARY, domain, { recursive: true });
    // Sparse: 33 MB long, nothing written.
    truncateSync(path.join(domain, 'data', 'tasks.json'), 33 * 1024 * 1024);
    const out = path.join(tmp(), 'out');
    const { code, err } = capture(['import', 'tau2', domain, '--out', out]);
    expect(code).toBe(EXIT.usage);
    expect(err).toContain('“data/tasks.json” is too large to open (33 MB; the limit is 32 MB).');
    expect(existsSync(out)).toBe(false);
  });
});

describe('policylab import on the shared domains', () => {
  const tau2 = existsSync(SHARED_TAU2);
  const intellagent = existsSync(SHARED_INTELLAGENT);

  it.skipIf(!tau2)(
    `tau2-bench retail checks without errors and carries every write tool's changes${tau2 ? '' : ' (skipped: ../shared/tau2/retail is absent)'}`,
    () => {
      const out = path.join(tmp(), 'retail');
      const { code, out: text } = capture(['import', 'tau2', SHARED_TAU2, '--out', out, '--json']);
      const report = JSON.parse(text) as {
        domain: { tools: number; tasks: number };
        notCarried: Array<{ item: string; message: string }>;
        check: { counts: { error: number } };
      };
      expect(report.check.counts.error).toBe(0);
      expect(code).toBe(EXIT.ok);
      expect(report.domain.tasks).toBe(114);
      expect(report.domain.tools).toBe(16);
      const uncarried = report.notCarried
        .filter((n) => n.message.startsWith('What it changes is not carried'))
        .map((n) => n.item);
      // Every write tool's changes are carried, nested ones and loops included.
      expect(uncarried).toEqual([]);
    },
  );

  it.skipIf(!intellagent)(
    `IntellAgent retail checks without errors${intellagent ? '' : ' (skipped: ../shared/intellagent/retail/input is absent)'}`,
    () => {
      const out = path.join(tmp(), 'retail');
      const { code, out: text } = capture([
        'import',
        'intellagent',
        SHARED_INTELLAGENT,
        '--out',
        out,
        '--json',
      ]);
      const report = JSON.parse(text) as {
        domain: { tools: number };
        check: { counts: { error: number } };
      };
      expect(report.check.counts.error).toBe(0);
      expect(code).toBe(EXIT.ok);
      expect(report.domain.tools).toBeGreaterThanOrEqual(15);
    },
  );
});
