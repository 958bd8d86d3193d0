import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { PROJECT_FILES, parseProject, toBundle } from '../core/index.ts';
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

describe('runCli', () => {
  it('prints the version it is given', () => {
    expect(capture(['--version'])).toEqual({ code: EXIT.ok, out: '9.8.7\n', err: '' });
    expect(capture(['-v']).out).toBe('9.8.7\n');
  });

  it('prints help, listing every project file from core, with no arguments or --help', () => {
    for (const argv of [[], ['--help'], ['-h']]) {
      const { code, out } = capture(argv);
      expect(code).toBe(EXIT.ok);
      expect(out).toContain('Usage:');
      for (const file of PROJECT_FILES) expect(out).toContain(file.name);
    }
  });

  it('rejects unknown options and commands with exit 2 and a pointer to --help', () => {
    for (const argv of [['--frobnicate'], ['launch']]) {
      const { code, out, err } = capture(argv);
      expect(code).toBe(EXIT.usage);
      expect(out).toBe('');
      expect(err).toMatch(/policylab: unknown (option|command)/i);
      expect(err).toContain('policylab --help');
    }
  });
});

describe('bin/policylab.js', () => {
  it('runs as a real process and prints the version from package.json', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const { stdout } = await promisify(execFile)(process.execPath, ['bin/policylab.js', '-v']);
    expect(stdout).toBe(`${version}\n`);
  });
});

describe('policylab check and extract', () => {
  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, ['bin/policylab.js', ...args]);

  it('finds no problems in the examples and exits 0', async () => {
    for (const example of ['airline', 'store']) {
      const { stdout } = await run(['check', `public/examples/${example}`]);
      expect(stdout.trim()).toBe('No problems found.');
    }
  });

  it('prints each problem with file, line and column, and exits 1 on errors', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'policylab-'));
    for (const file of PROJECT_FILES)
      writeFileSync(path.join(dir, file.name), MINI_FILES[file.name]);
    writeFileSync(
      path.join(dir, 'rules.yaml'),
      MINI_FILES['rules.yaml'].replace('policy: verify-identity', 'policy: verify-identiti'),
    );
    const failed = await run(['check', dir]).catch(
      (error: unknown) => error as { code: number; stdout: string },
    );
    expect('code' in failed && failed.code).toBe(EXIT.problems);
    expect(failed.stdout).toContain(
      `${dir}/rules.yaml:5:17  error    Unknown policy "verify-identiti". Did you mean "verify-identity"?  [unknown-policy]`,
    );
    expect(failed.stdout).toMatch(/1 error, 0 warnings, 0 info\.\n$/);

    const json = await run(['check', dir, '--json']).catch(
      (error: unknown) => error as { stdout: string },
    );
    const report = JSON.parse(json.stdout) as {
      counts: { error: number };
      diagnostics: { code: string; line: number }[];
    };
    expect(report.counts.error).toBe(1);
    expect(report.diagnostics[0]).toMatchObject({ code: 'unknown-policy', line: 5 });
  });

  it('reads bundles, and says what is wrong with a path or a file that is not a project', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'policylab-'));
    const bundle = path.join(dir, 'mini.policylab.json');
    writeFileSync(bundle, toBundle({ name: 'Mini', files: MINI_FILES }));
    expect((await run(['check', bundle])).stdout.trim()).toBe('No problems found.');
    writeFileSync(bundle, '{"format": "other"}');
    const bad = await run(['check', bundle]).catch(
      (error: unknown) => error as { code: number; stderr: string },
    );
    expect('code' in bad && bad.code).toBe(EXIT.usage);
    expect(bad.stderr).toContain('"format" must be "policylab/1"');
    const missing = await run(['check', path.join(dir, 'nowhere')]).catch(
      (error: unknown) => error as { stderr: string },
    );
    expect(missing.stderr).toContain('no such file or folder');
  });

  it('extracts policies from a prompt as YAML that policies.yaml accepts', async () => {
    const { stdout } = await run([
      'extract',
      'public/examples/airline/agent.md',
      '--tools',
      'public/examples/airline/tools.yaml',
    ]);
    const extracted = parse(stdout) as { policies: { id: string; source: { line: number } }[] };
    expect(extracted.policies.length).toBeGreaterThan(25);
    expect(new Set(extracted.policies.map((p) => p.id)).size).toBe(extracted.policies.length);
    const { diagnostics } = parseProject({
      name: 'x',
      files: {
        ...MINI_FILES,
        'agent.md': readFileSync('public/examples/airline/agent.md', 'utf8'),
        'policies.yaml': stdout,
      },
    });
    expect(diagnostics.filter((d) => d.file === 'policies.yaml' && d.code === 'schema')).toEqual(
      [],
    );
  });
});
