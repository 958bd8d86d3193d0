import type { Dexie, EntityTable, Table } from 'dexie';
import type { RunRepository, StoredRun } from '../../core/index.ts';

interface StoredEvent {
  readonly run: string;
  readonly seq: number;
  readonly event: unknown;
}

type RunDatabase = Dexie & {
  runs: EntityTable<StoredRun, 'id'>;
  events: Table<StoredEvent, [string, number]>;
};

/** Events put or read in one go when a log is appended or read; see `append`. */
export const APPEND_SLICE = 2_000;

/**
 * Keeps simulation runs in IndexedDB (through Dexie, loaded on first use). Version 1: a table of
 * runs and a table of events keyed by run and position, so appending never rewrites a log.
 */
export function createIndexedDbRunRepository(name = 'policylab-runs'): RunRepository {
  let opened: Promise<RunDatabase> | undefined;
  const open = () =>
    (opened ??= import('dexie').then(({ Dexie: DexieClass }) => {
      const db = new DexieClass(name) as RunDatabase;
      db.version(1).stores({ runs: 'id, projectId, createdAt', events: '[run+seq], run' });
      return db;
    }));
  return {
    async list(projectId) {
      const db = await open();
      const runs = await db.runs.where('projectId').equals(projectId).toArray();
      return runs.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    },
    async create(run) {
      await (await open()).runs.put(run);
    },
    async append(runId, from, events) {
      const db = await open();
      // One transaction written a slice at a time: the browser copies each event as it is put, so
      // a big log (an imported run of 10,000 dialogues) put at once held the page for seconds;
      // between slices it draws and answers. A failure anywhere writes none of it.
      await db.transaction('rw', db.events, async () => {
        for (let start = 0; start < events.length; start += APPEND_SLICE) {
          const slice = events.slice(start, start + APPEND_SLICE);
          await db.events.bulkPut(
            slice.map((event, i) => ({ run: runId, seq: from + start + i, event })),
          );
        }
      });
    },
    async events(runId) {
      const db = await open();
      // Read a slice at a time too, in one transaction: each slice is copied out on its own turn.
      return db.transaction('r', db.events, async () => {
        const log: unknown[] = [];
        let next = 0;
        for (;;) {
          const rows = await db.events
            .where('[run+seq]')
            .between([runId, next], [runId, Number.MAX_SAFE_INTEGER])
            .limit(APPEND_SLICE)
            .toArray();
          for (const row of rows) log.push(row.event);
          next = (rows.at(-1)?.seq ?? next) + 1;
          if (rows.length < APPEND_SLICE) return log;
        }
      });
    },
    async remove(runId) {
      const db = await open();
      await db.transaction('rw', db.runs, db.events, async () => {
        await db.events.where('run').equals(runId).delete();
        await db.runs.delete(runId);
      });
    },
  };
}

/** Keeps runs in memory: for tests, and where IndexedDB is unavailable. */
export function createMemoryRunRepository(): RunRepository {
  const runs = new Map<string, StoredRun>();
  const logs = new Map<string, unknown[]>();
  return {
    list: (projectId) =>
      Promise.resolve(
        [...runs.values()]
          .filter((r) => r.projectId === projectId)
          .sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
      ),
    create: (run) => {
      runs.set(run.id, run);
      logs.set(run.id, logs.get(run.id) ?? []);
      return Promise.resolve();
    },
    append: (runId, from, events) => {
      const log = logs.get(runId) ?? [];
      events.forEach((event, i) => (log[from + i] = event));
      logs.set(runId, log);
      return Promise.resolve();
    },
    events: (runId) => Promise.resolve([...(logs.get(runId) ?? [])]),
    remove: (runId) => {
      runs.delete(runId);
      logs.delete(runId);
      return Promise.resolve();
    },
  };
}
