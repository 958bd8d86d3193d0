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

/**
 * Each test below starts Node and tsx (a second or more on a loaded two-core machine), some of
 * them several times: the default 5 s limit is too tight there.
 */
const PROCESS_TIMEOUT_MS = 60_000;

describe('bin/policylab.js', { timeout: PROCESS_TIMEOUT_MS }, () => {
  it('runs as a real process and prints the version from package.json', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const { stdout } = await promisify(execFile)(process.execPath, ['bin/policylab.js', '-v']);
    expect(stdout).toBe(`${version}\n`);
  });
});

describe('policylab check and extract', { timeout: PROCESS_TIMEOUT_MS }, () => {
  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, ['bin/policylab.js', ...args]);

  it('finds no problems in the examples, notes the policies only a judge can report on, and exits 0', async () => {
    for (const example of ['airline', 'store']) {
      const { stdout } = await run(['check', `public/examples/${example}`]);
      const lines = stdout.trimEnd().split('\n');
      const notes = lines.slice(0, -2);
      expect(notes.length, example).toBeGreaterThan(0);
      for (const line of notes)
        expect(line).toMatch(
          / {2}info {5}Only a judge model can report on "[a-z0-9-]+": .*\[judge-only-policy\]$/,
        );
      expect(lines.slice(-2)).toEqual([
        `0 errors, 0 warnings, ${notes.length} info.`,
        `${notes.length} of ${example === 'airline' ? 58 : 48} policies can only be reported by a judge model.`,
      ]);
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
    // The misspelt policy leaves verify-identity with no rule, so only a judge can report on it.
    expect(failed.stdout).toContain(
      `${dir}/policies.yaml:3:9  info     Only a judge model can report on "verify-identity"`,
    );
    expect(failed.stdout).toMatch(
      /1 error, 0 warnings, 1 info\.\n1 of 2 policies can only be reported by a judge model\.\n$/,
    );

    const json = await run(['check', dir, '--json']).catch(
      (error: unknown) => error as { stdout: string },
    );
    const report = JSON.parse(json.stdout) as {
      counts: { error: number };
      coverage: unknown;
      diagnostics: { code: string; line: number }[];
    };
    expect(report.counts.error).toBe(1);
    expect(report.coverage).toEqual({
      policies: 2,
      judgeOnly: 1,
      byPolicy: { 'verify-identity': [], 'refund-window': ['guard', 'check', 'expectation'] },
    });
    expect(report.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ['judge-only-policy', 3],
      ['unknown-policy', 5],
    ]);
  });

  it('reads bundles, and says what is wrong with a path or a file that is not a project', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'policylab-'));
    const bundle = path.join(dir, 'mini.policylab.json');
    writeFileSync(bundle, toBundle({ name: 'Mini', files: MINI_FILES }));
    expect((await run(['check', bundle])).stdout).toBe(
      'No problems found.\n0 of 2 policies can only be reported by a judge model.\n',
    );
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
    const extracted = parse(stdout) as {
      policies: { id: string; text: string; tools?: string[]; source: { line: number } }[];
    };
    expect(extracted.policies.length).toBeGreaterThan(25);
    // --tools links policies to tools by name and by the words of their descriptions.
    expect(extracted.policies.filter((p) => (p.tools ?? []).length > 0).length).toBeGreaterThan(40);
    const find = (start: string) => extracted.policies.find((p) => p.text.startsWith(start));
    expect(find('Ask for the reason')?.tools).toEqual(['cancel_reservation']);
    // Only the tool's description speaks of bags.
    expect(find('Each checked bag beyond')?.tools).toEqual(['update_reservation_baggages']);
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

describe('policylab graph and sample', () => {
  const store = 'public/examples/store';

  it('lists the graph as text: policies with category and challenge, edges with weight and origin', () => {
    const { code, out, err } = capture(['graph', store]);
    expect(code).toBe(EXIT.ok);
    expect(err).toBe('');
    expect(out).toMatch(/^48 policies in \d+ categories:\n/);
    expect(out).toMatch(/\n {2}authenticate-by-email-or-name-zip +authentication +challenge 1\n/);
    expect(out).toMatch(/\n\d+ edges \(44 written, \d+ heuristic\):\n/);
    expect(out).toMatch(/ -- .+ {2}[ \d]\d {2}manual\n/);
    expect(out).toMatch(/ -- .+ {2}[ \d]\d {2}heuristic: tools? [a-z_]+/);
  });

  it('prints the graph as JSON and as Graphviz DOT with dashed heuristic edges', () => {
    const json = JSON.parse(capture(['graph', store, '--json']).out) as {
      nodes: { id: string }[];
      edges: { id: string; origin: string; reasons: string[] }[];
      categories: string[];
    };
    expect(json.nodes).toHaveLength(48);
    expect(json.edges.filter((e) => e.origin === 'manual')).toHaveLength(44);
    expect(json.edges.find((e) => e.origin === 'heuristic')?.reasons.length).toBeGreaterThan(0);
    const dot = capture(['graph', store, '--dot']).out;
    expect(dot).toMatch(/^graph "store" \{\n/);
    expect(dot).toMatch(/\}\n$/);
    const heuristic = dot.split('\n').filter((line) => line.includes('style=dashed'));
    expect(heuristic).toHaveLength(json.edges.length - 44);
    // Quotes inside a tooltip are escaped, so every line keeps an even number of bare quotes.
    for (const line of dot.split('\n'))
      expect(line.replace(/\\"/g, '').split('"').length % 2).toBe(1);
    expect(dot).toContain('term \\"');
  });

  it('samples the same combinations for the same seed, one per line, within the band', () => {
    const argv = ['sample', store, '--seed', '4', '--count', '12', '--levels', '3-8'];
    const first = capture(argv);
    expect(first.code).toBe(EXIT.ok);
    expect(capture(argv).out).toBe(first.out);
    expect(capture([...argv.slice(0, 3), '5', ...argv.slice(4)]).out).not.toBe(first.out);
    const lines = first.out.trim().split('\n');
    expect(lines).toHaveLength(12);
    for (const line of lines) {
      const [, level, target] =
        /^level (\d+) \(target (\d+)\): [a-z0-9-]+(, [a-z0-9-]+)*$/.exec(line) ?? [];
      expect(Number(level)).toBeGreaterThanOrEqual(3);
      expect(Number(level)).toBeLessThanOrEqual(8);
      expect(level).toBe(target);
    }
    const json = JSON.parse(capture([...argv, '--json', '--prefer-uncovered']).out) as {
      seed: number;
      preferUncovered: boolean;
      samples: { level: number; policies: string[] }[];
    };
    expect(json).toMatchObject({ seed: 4, preferUncovered: true });
    expect(json.samples).toHaveLength(12);
  });

  it('warns about levels the graph cannot reach, and still samples the rest', () => {
    const { code, out, err } = capture(['sample', store, '--levels', '1-400', '--count', '3']);
    expect(code).toBe(EXIT.ok);
    expect(out.trim().split('\n')).toHaveLength(3);
    expect(err).toMatch(
      /warning: levels \d+-400 cannot be sampled: the largest connected group of policies reaches level \d+\.\n$/,
    );
  });

  it('rejects bad --seed, --count, --levels and misplaced options with exit 2', () => {
    const cases: [string[], RegExp][] = [
      [['sample', store, '--seed', 'abc'], /--seed must be a whole number, not "abc"/],
      [['sample', store, '--seed', '1.5'], /--seed must be a whole number/],
      [['sample', store, '--count', '0'], /--count must be a whole number from 1/],
      [['sample', store, '--count', 'many'], /--count must be/],
      [
        ['sample', store, '--levels', '8-3'],
        /--levels: Levels must be a level or a band such as 4-8/,
      ],
      [['sample', store, '--levels', '0-4'], /--levels: Levels must be/],
      [['sample', store, '--levels', 'five'], /--levels: Levels must be/],
      [['graph', store, '--json', '--dot'], /choose one of --json and --dot/],
      [['graph', store, '--seed', '3'], /--seed does not apply to "graph"/],
      [['check', store, '--dot'], /--dot does not apply to "check"/],
      [['sample'], /"sample" needs a path/],
      [['graph', 'nowhere/at/all'], /no such file or folder/],
    ];
    for (const [argv, message] of cases) {
      const { code, out, err } = capture(argv);
      expect({ argv, code, out }).toEqual({ argv, code: EXIT.usage, out: '' });
      expect(err).toMatch(message);
    }
  });

  it('works on what parsed when the project has errors, with a warning', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'policylab-'));
    for (const file of PROJECT_FILES)
      writeFileSync(path.join(dir, file.name), MINI_FILES[file.name]);
    writeFileSync(
      path.join(dir, 'policies.yaml'),
      `${MINI_FILES['policies.yaml']}  - between: [verify-identity, ghost]\n    weight: 3\n`,
    );
    const graph = capture(['graph', dir]);
    expect(graph.code).toBe(EXIT.ok);
    expect(graph.err).toContain('warning: the project has 1 error; this uses what could be read.');
    expect(graph.out).toContain('refund-window -- verify-identity   6  manual');
    const sampled = capture(['sample', dir, '--levels', '2-5', '--count', '4']);
    expect(sampled.code).toBe(EXIT.ok);
    expect(sampled.out.trim().split('\n')).toHaveLength(4);
    const impossible = capture(['sample', dir, '--levels', '20-30']);
    expect(impossible.code).toBe(EXIT.problems);
    expect(impossible.err).toContain('no level of the band can be sampled');
  });
});
