import type { SimEvent } from './events.ts';
import { dialogueId } from './events.ts';

/**
 * Splitting one run over many machines, and putting it back together. A run's work is the set of
 * scenario × trial jobs; shard K of N runs the jobs whose key hashes to K, so the N shards are
 * disjoint, cover everything, and agree on who runs what without talking to each other (the
 * matrix of a CI pipeline: one job per shard, then `report` over all their logs).
 */

/** The K-th (from 1) of N slices of a run. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** Shards at most; a matrix larger than this is a typo. */
export const MAX_SHARDS = 1000;

/** FNV-1a, 32 bits: the same number for the same key on every machine and in every runtime. */
function fnv1a(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The shard (1..count) a job belongs to, by its key: a dialogue id, or a generated scenario's id. */
export function shardOf(key: string, count: number): number {
  return (fnv1a(key) % count) + 1;
}

/**
 * The key that places a job: a hand-written scenario's trials spread over the shards by their
 * dialogue ids; a generated scenario goes whole to one shard by its id, since only that shard
 * writes it (its generator call is made once, wherever it runs).
 */
export function jobKey(
  scenario: string,
  trial: number,
  source: 'hand-written' | 'generated',
): string {
  return source === 'generated' ? scenario : dialogueId(scenario, trial);
}

/** Whether `shard` (absent: the whole run) runs the job with this key. */
export function inShard(key: string, shard: Shard | undefined): boolean {
  return shard === undefined || shardOf(key, shard.count) === shard.index;
}

/** Reads "K/N" as a shard, or says what is wrong with it. */
export function parseShard(text: string): Shard | { readonly problem: string } {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!match) return { problem: `a shard is written K/N, like 2/8, not "${text}".` };
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || count > MAX_SHARDS)
    return { problem: `N must be from 1 to ${MAX_SHARDS}, not ${count}.` };
  if (index < 1 || index > count)
    return { problem: `K must be from 1 to N (${count}), not ${index}.` };
  return { index, count };
}

type Started = Extract<SimEvent, { type: 'run-started' }>;

/** What must agree between logs for them to be shards of one run. */
function sameRun(a: Started, b: Started): string | undefined {
  if (a.projectHash !== b.projectHash) return 'they judged different project files';
  if (a.seed !== b.seed) return `their seeds differ (${a.seed} and ${b.seed})`;
  if (a.trials !== b.trials) return `their trials differ (${a.trials} and ${b.trials})`;
  if (JSON.stringify(a.models) !== JSON.stringify(b.models)) return 'their models differ';
  if ((a.shard?.count ?? 1) !== (b.shard?.count ?? 1)) return 'they were cut into different N';
  return undefined;
}

/**
 * Several logs of one run (its shards, in any order) as one log: one start (without its shard),
 * each scenario once, every shard's dialogues and spending, and an end only when every shard
 * ended. Refuses logs of different runs, two logs of one shard, or a dialogue run twice. One log
 * comes back as it is.
 */
export function mergeRunLogs(
  logs: readonly (readonly SimEvent[])[],
): { readonly events: SimEvent[] } | { readonly problem: string } {
  if (logs.length === 0) return { problem: 'there is no log to read.' };
  if (logs.length === 1) return { events: [...(logs[0] ?? [])] };
  const starts = logs.map((log) => log.find((e): e is Started => e.type === 'run-started'));
  const missing = starts.findIndex((s) => s === undefined);
  if (missing >= 0) return { problem: `log ${missing + 1} has no run-started event.` };
  const [first] = starts as Started[];
  if (!first) return { problem: 'there is no log to read.' };
  const seen = new Set<number>();
  for (const [i, start] of (starts as Started[]).entries()) {
    const differ = sameRun(first, start);
    if (differ) return { problem: `logs 1 and ${i + 1} are not shards of one run: ${differ}.` };
    const index = start.shard?.index ?? 1;
    if (seen.has(index)) return { problem: `two logs are shard ${index} of the run.` };
    seen.add(index);
  }

  const { shard: _whole, ...start } = first;
  const events: SimEvent[] = [start];
  const scenarios = new Set<string>();
  const dialogues = new Map<string, number>();
  const endings: (Extract<SimEvent, { type: 'run-ended' }> | undefined)[] = [];
  for (const [i, log] of logs.entries()) {
    let ending: Extract<SimEvent, { type: 'run-ended' }> | undefined;
    for (const event of log) {
      if (event.type === 'run-started') continue;
      if (event.type === 'run-ended') {
        ending = event;
        continue;
      }
      if (event.type === 'scenario') {
        if (scenarios.has(event.scenario.id)) continue;
        scenarios.add(event.scenario.id);
      }
      if (event.type === 'dialogue-started') {
        const other = dialogues.get(event.dialogue);
        if (other !== undefined && other !== i)
          return {
            problem: `logs ${other + 1} and ${i + 1} both ran dialogue "${event.dialogue}": they are not disjoint shards.`,
          };
        dialogues.set(event.dialogue, i);
      }
      events.push(event);
    }
    endings.push(ending);
  }
  const everyShard = seen.size === (first.shard?.count ?? 1);
  if (everyShard && endings.every((e) => e !== undefined)) {
    const stopped = endings.find((e) => e.reason !== 'done');
    const last = Math.max(...endings.map((e) => e.at));
    events.push({ type: 'run-ended', at: last, reason: stopped?.reason ?? 'done' });
  }
  return { events };
}
