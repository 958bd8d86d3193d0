import { describe, expect, it } from 'vitest';
import { createMemoryRepository } from '../adapters/storage/projectRepository.ts';
import { createMemoryRunRepository } from '../adapters/storage/runRepository.ts';
import type { RunRepository, SimEvent } from '../core/index.ts';
import { assistLogId } from '../core/index.ts';
import { testServices } from '../test/services.ts';
import { createAppStore } from './createAppStore.ts';

const usage = (inputTokens: number, failed = false): SimEvent => ({
  type: 'usage',
  at: 0,
  role: 'generator',
  model: 'm',
  inputTokens,
  outputTokens: 10,
  cost: 0.25,
  ms: 3,
  ...(failed && { failed: 'server' as const }),
});

/** A store over shared storage, as a page load is; resolves once its project's log is read. */
async function page(
  runs: RunRepository,
  repository = createMemoryRepository(),
  projectId?: string,
) {
  const store = createAppStore(testServices({ runs, repository }));
  await store.getState().boot(projectId === undefined ? { example: 'mini' } : { projectId });
  await store.getState().loadAssistLog();
  return store;
}

describe('the Assist log slice', () => {
  it('keeps every call of an action, failed ones too, and reads them back after a reload', async () => {
    const runs = createMemoryRunRepository();
    const repository = createMemoryRepository();
    const first = await page(runs, repository);
    const emit = first.getState().assistEmitter('attack');
    emit(usage(100));
    emit({ type: 'run-ended', at: 0, reason: 'done' });
    emit(usage(200, true));
    first.getState().assistEmitter('relate')(usage(300));
    expect(first.getState().assistLog.map((e) => [e.action, e.inputTokens])).toEqual([
      ['attack', 100],
      ['attack', 200],
      ['relate', 300],
    ]);
    await first.getState().assistLogWritten();
    const id = first.getState().projectId;
    const again = await page(runs, repository, id);
    expect(again.getState().projectId).toBe(id);
    expect(again.getState().assistLog).toEqual(first.getState().assistLog);
    expect(again.getState().assistLog[1]?.failed).toBe('server');
    expect(again.getState().assistLogProblem).toBeNull();
  });

  it('says so when storage refuses a write, and keeps the entry in the page', async () => {
    const runs = createMemoryRunRepository();
    const store = await page({
      ...runs,
      append: () => Promise.reject(new Error('QuotaExceededError: the disk is full')),
    });
    store.getState().assistEmitter('extract')(usage(50));
    store.getState().assistEmitter('extract')(usage(60));
    await store.getState().assistLogWritten();
    expect(store.getState().assistLog.map((e) => e.inputTokens)).toEqual([50, 60]);
    expect(store.getState().assistLogProblem).toContain('could not be saved');
    expect(store.getState().assistLogProblem).toContain('the disk is full');
  });

  it('leaves out stored entries that are not entries, and says how many', async () => {
    const runs = createMemoryRunRepository();
    const repository = createMemoryRepository();
    const first = await page(runs, repository);
    const id = first.getState().projectId;
    first.getState().assistEmitter('relate')(usage(10));
    await first.getState().assistLogWritten();
    await runs.append(assistLogId(id), 1, [{ type: 'assist-usage', action: 'relate' }, '<img>']);
    const again = await page(runs, repository, id);
    expect(again.getState().assistLog).toHaveLength(1);
    expect(again.getState().assistLogProblem).toBe(
      '2 stored Assist log entries were unreadable and left out of the totals.',
    );
  });

  it('keeps each project’s log to itself', async () => {
    const runs = createMemoryRunRepository();
    const store = await page(runs);
    store.getState().assistEmitter('relate')(usage(10));
    await store.getState().newProject();
    await store.getState().loadAssistLog();
    expect(store.getState().assistLog).toEqual([]);
    store.getState().assistEmitter('attack')(usage(20));
    await store.getState().loadAssistLog();
    expect(store.getState().assistLog.map((e) => e.action)).toEqual(['attack']);
  });
});
