import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../core/index.ts';
import { readLog, wilson } from '../core/index.ts';
import { MINI_FILES } from '../core/testing/miniProject.ts';
import type { Draft } from '../core/testing/reportLogs.ts';
import { broke, dialogue, ok, scenario, stamp, start } from '../core/testing/reportLogs.ts';
import { AIRLINE_RUN, AIRLINE_RUN_B } from '../test/airlineRun.ts';
import { simulateRefunds } from '../test/refundDesk.ts';
import { EXIT, runCli } from './main.ts';

function capture(argv: string[]) {
  let out = '';
  let err = '';
  const code = runCli(argv, '9.8.7', { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

const folder = () => mkdtempSync(path.join(tmpdir(), 'policylab-reports-'));
const jsonl = (events: readonly SimEvent[]) =>
  `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;

/** A log of 60 dialogues on privacy, `passes` of them passing. */
function run(passes: number, seed = 1): SimEvent[] {
  const drafts: Draft[] = [{ ...start, seed, trials: 1, models: { agent: 'a', user: 'u' } }];
  for (let i = 0; i < 60; i++) drafts.push(scenario(`s${i}`, ['privacy']));
  for (let i = 0; i < 60; i++)
    drafts.push(
      ...dialogue(`s${i}#1`, `s${i}`, 0, {
        end: 'user-done',
        findings: [i < passes ? ok('c', 'privacy') : broke('c', 'privacy')],
      }),
    );
  return stamp(drafts);
}

describe('policylab report', () => {
  it('prints a log’s report as Markdown, CSV or JSON, gzipped or not', () => {
    const dir = folder();
    writeFileSync(path.join(dir, 'a.jsonl'), jsonl(run(45)));
    writeFileSync(path.join(dir, 'b.jsonl.gz'), gzipSync(jsonl(run(45))));
    const md = capture(['report', path.join(dir, 'a.jsonl')]);
    expect(md.code).toBe(EXIT.ok);
    expect(md.out).toContain('**75.0%**');
    expect(md.out).toContain('Simulated user: u');
    const csv = capture(['report', path.join(dir, 'b.jsonl.gz'), '--csv']);
    const { low, high } = wilson(45, 60);
    expect(csv.out.split('\r\n')[1]).toBe(`overall,run,45,15,0.75,${low},${high},`);
    const json = capture(['report', path.join(dir, 'a.jsonl'), '--json']);
    expect(JSON.parse(json.out)).toMatchObject({ overall: { passes: 45, fails: 15 } });
    expect(capture(['report', path.join(dir, 'a.jsonl'), '--md', '--csv']).code).toBe(EXIT.usage);
  });

  it('says what is wrong with a log that cannot be read', () => {
    const dir = folder();
    writeFileSync(path.join(dir, 'bad.jsonl'), '{"type":"run-started"\n');
    const broken = capture(['report', path.join(dir, 'bad.jsonl')]);
    expect(broken.code).toBe(EXIT.usage);
    expect(broken.err).toContain('bad.jsonl:1: this line is not JSON');
    expect(capture(['report', path.join(dir, 'none.jsonl')]).err).toContain('no such file');
  });
});

describe('policylab compare', () => {
  it('exits 1 only on a drop beyond noise and beyond --max-drop', () => {
    const dir = folder();
    const file = (name: string, events: SimEvent[]) => {
      writeFileSync(path.join(dir, name), jsonl(events));
      return path.join(dir, name);
    };
    const base = file('base.jsonl', run(54));
    const slight = file('slight.jsonl', run(50, 2));
    const steep = file('steep.jsonl', run(30, 3));
    const fine = capture(['compare', base, slight]);
    expect(fine.code).toBe(EXIT.ok);
    expect(fine.out).toContain('## Passed before, failed after (4)');
    const fell = capture(['compare', base, steep, '--max-drop', '0.05']);
    expect(fell.code).toBe(1);
    expect(fell.err).toContain('the whole pass rate, privacy dropped by more than 5.0 points');
    expect(capture(['compare', base, steep, '--max-drop', '0.5']).code).toBe(EXIT.ok);
    expect(capture(['compare', base, steep, '--max-drop', 'lots']).code).toBe(EXIT.usage);
    expect(capture(['compare', base]).err).toContain('needs two runs');
  });

  it('names the files that changed between the runs, and with --diff prints their patch', () => {
    const dir = folder();
    const [before, after] = [AIRLINE_RUN.path, AIRLINE_RUN_B.path].map((fixture) => {
      const file = path.join(dir, path.basename(fixture).replace('.json', '.jsonl'));
      writeFileSync(file, jsonl(JSON.parse(readFileSync(fixture, 'utf8')) as SimEvent[]));
      return file;
    }) as [string, string];
    const { file, removed, added } = AIRLINE_RUN_B.changed;
    const plain = capture(['compare', before, after]);
    expect(plain.out).toContain(`- The project files differ: ${file} (+1 −1).`);
    expect(plain.out).not.toContain('## Project files');
    const diff = capture(['compare', before, after, '--diff']);
    expect(diff.out).toContain(
      `## Project files\n\n\`\`\`diff\n--- a/${file}\n+++ b/${file}\n@@ -12,7 +12,7 @@\n`,
    );
    expect(diff.out).toContain(`\n-${removed}\n+${added}\n`);
    const json = JSON.parse(capture(['compare', before, after, '--json']).out) as {
      files: { kind: string; patch: string };
    };
    expect(json.files.kind).toBe('changed');
    expect(json.files.patch).toContain(`+${added}`);
  });
});

describe('policylab recheck', () => {
  it('writes the run judged against today’s files and names the verdicts that flipped', async () => {
    const dir = folder();
    for (const [name, text] of Object.entries(MINI_FILES))
      writeFileSync(path.join(dir, name), text);
    const { events } = await simulateRefunds();
    const log = path.join(dir, 'run-1.jsonl');
    writeFileSync(log, jsonl(events));
    const same = capture(['recheck', dir, log]);
    expect(same.out).toContain('Re-checked 4 dialogues');
    expect(same.out).toContain('No verdict changed.');
    writeFileSync(
      path.join(dir, 'rules.yaml'),
      `${MINI_FILES['rules.yaml']}  - id: never-name-o1
    policy: refund-window
    kind: must_not_say
    pattern: '\\bo1\\b'
`,
    );
    const out = path.join(dir, 'again.jsonl');
    const flipped = capture(['recheck', dir, log, '--out', out]);
    expect(flipped.code).toBe(EXIT.ok);
    expect(flipped.out).toContain(
      '  now fails: fresh#1\n  now fails: fresh#2\n2 now fail, 0 now pass.',
    );
    const written = readLog(
      readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    );
    expect(written.ok && written.events[0]).toMatchObject({
      source: { kind: 'rechecked', run: 'run-1' },
    });
  });
});
