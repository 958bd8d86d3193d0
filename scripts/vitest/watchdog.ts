import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

/** A test still running this long is reported as slow, once. */
const SLOW_MS = Number(process.env.POLICYLAB_WATCHDOG_SLOW_MS ?? 180_000);
/** A test still running this long is hung: the run stops, naming it, and fails. */
const HUNG_MS = Number(process.env.POLICYLAB_WATCHDOG_HUNG_MS ?? 600_000);
const LOOK_EVERY_MS = 5_000;

/**
 * A Vitest reporter that names a hung test instead of letting the run wait for ever. Vitest's own
 * time limit cannot fire in a test that spins without awaiting (its worker's event loop never
 * turns), so this watches from the main process: each test and each test file that has started
 * and not finished is timed, one running past SLOW_MS is named, and one past HUNG_MS is named and
 * ends the run with exit code 1, its worker processes killed so nothing is left spinning.
 */
export default class Watchdog implements Reporter {
  private readonly running = new Map<string, { name: string; since: number; told: boolean }>();
  private timer: ReturnType<typeof setInterval> | undefined;
  /** Where src/test/setupWatchdog.ts writes, per worker, the test it is in. */
  private readonly folder = mkdtempSync(path.join(tmpdir(), 'policylab-vitest-'));

  constructor() {
    process.env.POLICYLAB_VITEST_RUNNING = this.folder;
  }

  onTestRunStart(): void {
    this.timer = setInterval(() => {
      this.look();
    }, LOOK_EVERY_MS);
    this.timer.unref();
  }

  onTestModuleStart(module: TestModule): void {
    this.start(`file ${module.moduleId}`, module.moduleId);
  }

  onTestModuleEnd(module: TestModule): void {
    this.running.delete(`file ${module.moduleId}`);
  }

  onTestCaseReady(test: TestCase): void {
    this.start(test.id, `${relative(test.module.moduleId)} > ${test.fullName}`);
  }

  onTestCaseResult(test: TestCase): void {
    this.running.delete(test.id);
  }

  onTestRunEnd(): void {
    clearInterval(this.timer);
    this.running.clear();
    rmSync(this.folder, { recursive: true, force: true });
  }

  /** A test's name as is; a file's, with the test its worker last said it was in. */
  private named(name: string): string {
    if (!path.isAbsolute(name)) return name;
    let test = '';
    try {
      for (const worker of readdirSync(this.folder)) {
        const [file, title] = readFileSync(path.join(this.folder, worker), 'utf8').split('\n');
        if (file === name && title) test = ` > ${title}`;
      }
    } catch {
      // No worker has written yet.
    }
    return `${relative(name)}${test}`;
  }

  private start(key: string, name: string): void {
    this.running.set(key, { name, since: Date.now(), told: false });
  }

  private look(): void {
    const now = Date.now();
    for (const entry of this.running.values()) {
      const seconds = Math.round((now - entry.since) / 1000);
      const name = this.named(entry.name);
      if (now - entry.since >= HUNG_MS) {
        process.stderr.write(`\nwatchdog: HUNG: ${name} has run ${seconds} s; stopping the run.\n`);
        killDescendants(process.pid);
        rmSync(this.folder, { recursive: true, force: true });
        process.exit(1);
      }
      if (!entry.told && now - entry.since >= SLOW_MS) {
        entry.told = true;
        process.stderr.write(`\nwatchdog: still running after ${seconds} s: ${name}\n`);
      }
    }
  }
}

const relative = (id: string) => id.replace(`${process.cwd()}/`, '');

/** Kills every process below `pid` (Linux's /proc; elsewhere nothing is found and none killed). */
function killDescendants(pid: number): void {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return;
  }
  for (const entry of entries) {
    try {
      // "pid (comm) state ppid …": the command may hold spaces and parentheses, so read after ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const below = (of: number): number[] =>
    (children.get(of) ?? []).flatMap((child) => [...below(child), child]);
  for (const child of below(pid)) {
    try {
      process.kill(child, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
