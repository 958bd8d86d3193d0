import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { PolicyFacts, SimEvent } from '../core/index.ts';
import {
  compareRuns,
  comparisonMarkdown,
  mergeRunLogs,
  parseProject,
  readLog,
  recheckRun,
  regressions,
  reportCsv,
  reportMarkdown,
  projectChanges,
  reportOf,
  unifiedDiff,
} from '../core/index.ts';
import { loadProject } from './loadProject.ts';
import type { CliIO } from './main.ts';

/*
 * The commands that read run logs: `report` prints a run's report, `compare` two runs' difference
 * (and gates CI on a regression beyond noise), `recheck` judges a saved run again against the
 * project as it is now. A run may be given as several logs (its shards): a folder of them, or
 * paths joined with commas.
 */

/** Exit codes: 0 fine, 1 a regression (compare), 2 bad input. */
const CODE = { ok: 0, regressed: 1, usage: 2 } as const;

/** Log files a run argument names: a file, a folder of *.jsonl(.gz), or a comma-joined list. */
function logFiles(argument: string): string[] {
  return argument.split(',').flatMap((part) => {
    const stat = statSync(part, { throwIfNoEntry: false });
    if (!stat?.isDirectory()) return [part];
    return readdirSync(part)
      .filter((name) => /\.jsonl(\.gz)?$/.test(name))
      .sort()
      .map((name) => path.join(part, name));
  });
}

/** One log file's events (JSON lines, gzipped or not), read and migrated, or what is wrong. */
function readLogFile(file: string): SimEvent[] | string {
  let text: string;
  try {
    const bytes = readFileSync(file);
    text = (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  } catch (error) {
    return `${file}: ${error instanceof Error ? error.message : String(error)}`;
  }
  const raw: unknown[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    try {
      raw.push(JSON.parse(line));
    } catch {
      return `${file}:${i + 1}: this line is not JSON; a run's log has one event per line.`;
    }
  }
  const read = readLog(raw);
  return read.ok ? read.events : `${file}: ${read.error}`;
}

/** A run from one or more logs (its shards, merged), or what is wrong. */
export function readRun(argument: string): SimEvent[] | string {
  const files = logFiles(argument);
  if (files.length === 0) return `${argument}: no *.jsonl log in it.`;
  const logs: SimEvent[][] = [];
  for (const file of files) {
    const events = readLogFile(file);
    if (typeof events === 'string') return events;
    logs.push(events);
  }
  const merged = mergeRunLogs(logs);
  return 'problem' in merged ? `${argument}: ${merged.problem}` : merged.events;
}

/** The policies' categories and challenges, from a project when one is given. */
function factsOf(projectPath: string | undefined, io: CliIO): PolicyFacts | number {
  if (projectPath === undefined) return new Map();
  const loaded = loadProject(projectPath);
  if ('error' in loaded) {
    io.err(`policylab: ${loaded.error}\n`);
    return CODE.usage;
  }
  const { model } = parseProject(loaded.project);
  return new Map(
    model.policies.map((p) => [p.id, { category: p.category, challenge: p.challenge }]),
  );
}

function fail(io: CliIO, message: string): number {
  io.err(`policylab: ${message}\n`);
  return CODE.usage;
}

/** `policylab report <run> [--project P] [--md|--csv|--json]`. */
export function report(
  run: string,
  options: { project?: string | undefined; format: 'md' | 'csv' | 'json' },
  io: CliIO,
): number {
  const events = readRun(run);
  if (typeof events === 'string') return fail(io, events);
  const facts = factsOf(options.project, io);
  if (typeof facts === 'number') return facts;
  const result = reportOf(events, facts);
  if (options.format === 'json') io.out(`${JSON.stringify(result, null, 2)}\n`);
  else if (options.format === 'csv') io.out(reportCsv(result));
  else io.out(reportMarkdown(result, path.basename(run)));
  return CODE.ok;
}

/**
 * `policylab compare <before> <after> [--project P] [--max-drop 0.05] [--json]`: exits 1 when the
 * whole pass rate or a policy's dropped by more than max-drop and beyond noise.
 */
export function compare(
  before: string,
  after: string,
  options: {
    project?: string | undefined;
    maxDrop?: string | undefined;
    json: boolean;
    diff: boolean;
  },
  io: CliIO,
): number {
  const maxDrop = Number(options.maxDrop ?? '0.05');
  if (!(options.maxDrop === undefined || /^\d*\.?\d+$/.test(options.maxDrop)) || maxDrop > 1)
    return fail(io, `--max-drop must be a share from 0 to 1, like 0.05, not "${options.maxDrop}".`);
  const facts = factsOf(options.project, io);
  if (typeof facts === 'number') return facts;
  const logs: SimEvent[][] = [];
  for (const run of [before, after]) {
    const events = readRun(run);
    if (typeof events === 'string') return fail(io, events);
    logs.push(events);
  }
  const [a, b] = logs as [SimEvent[], SimEvent[]];
  const comparison = compareRuns(reportOf(a, facts), reportOf(b, facts));
  const changes = projectChanges(a, b);
  const fell = regressions(comparison, maxDrop);
  if (options.json) {
    const files =
      changes.kind === 'changed' ? { ...changes, patch: unifiedDiff(changes.files) } : changes;
    io.out(`${JSON.stringify({ maxDrop, regressions: fell, ...comparison, files }, null, 2)}\n`);
  } else
    io.out(
      comparisonMarkdown(comparison, path.basename(before), path.basename(after), {
        changes,
        diff: options.diff,
      }),
    );
  if (fell.length === 0) return CODE.ok;
  const names = fell.map((r) => (r.key === 'overall' ? 'the whole pass rate' : r.key));
  io.err(
    `policylab: ${names.join(', ')} dropped by more than ${(maxDrop * 100).toFixed(1)} points, beyond noise.\n`,
  );
  return CODE.regressed;
}

/** `policylab recheck <project> <run> [--out FILE]`: writes the re-judged log, lists the flips. */
export function recheck(
  projectPath: string,
  run: string,
  options: { out?: string | undefined },
  io: CliIO,
): number {
  const loaded = loadProject(projectPath);
  if ('error' in loaded) return fail(io, loaded.error);
  const events = readRun(run);
  if (typeof events === 'string') return fail(io, events);
  const { model } = parseProject(loaded.project);
  const source = path.basename(run).replace(/\.jsonl(\.gz)?$/, '');
  const again = recheckRun(model, loaded.project.files, source, events);
  const out =
    options.out ?? `${run.replace(/\.jsonl(\.gz)?$/, '').replace(/[,/]+$/, '')}.rechecked.jsonl`;
  writeFileSync(out, `${again.events.map((e) => JSON.stringify(e)).join('\n')}\n`);
  const facts = new Map(
    model.policies.map((p) => [p.id, { category: p.category, challenge: p.challenge }]),
  );
  const comparison = compareRuns(reportOf(events, facts), reportOf(again.events, facts));
  for (const note of again.notes) io.err(`note: ${note}\n`);
  for (const { dialogue, reason } of again.kept)
    io.err(`note: ${dialogue} keeps its old verdict: ${reason}\n`);
  const lines = [
    `Re-checked ${again.rechecked} dialogue${again.rechecked === 1 ? '' : 's'} against the project as it is now (no model called; guard rules shaped the dialogues and are not re-run).`,
    ...comparison.broke.map((f) => `  now fails: ${f.after.dialogue}`),
    ...comparison.fixed.map((f) => `  now passes: ${f.after.dialogue}`),
    comparison.broke.length + comparison.fixed.length === 0
      ? 'No verdict changed.'
      : `${comparison.broke.length} now fail, ${comparison.fixed.length} now pass.`,
    `Wrote ${out}.`,
  ];
  io.out(`${lines.join('\n')}\n`);
  return CODE.ok;
}
