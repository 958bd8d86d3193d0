import { describe, expect, it } from 'vitest';
import { createMemoryRepository } from '../adapters/storage/projectRepository.ts';
import type { ProjectRepository, StoredProject } from '../core/index.ts';
import { MINI_FILES } from '../core/testing/miniProject.ts';
import { manualScheduler } from '../test/manualScheduler.ts';
import { testServices } from '../test/services.ts';
import type { AppStore } from './createAppStore.ts';
import { createAppStore } from './createAppStore.ts';

const DELAY = 250;
const MAX_WAIT = 400;

/** A write the store asked of the repository, held until the test releases it. */
interface Write {
  readonly project: StoredProject;
  readonly release: () => void;
}

/**
 * A store with a project already on this device (opening it writes nothing), a repository that
 * holds each write until the test releases it, and timers that move only when the test says.
 */
async function setup(maxWaitMs = 100 * DELAY) {
  const memory = createMemoryRepository([
    {
      id: 'p1',
      name: 'Mine',
      files: MINI_FILES,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    },
  ]);
  const writes: Write[] = [];
  let onWrite: ((write: Write) => void) | undefined;
  const repository: ProjectRepository = {
    ...memory,
    put: (project) =>
      new Promise<void>((resolve, reject) => {
        const write = { project, release: () => void memory.put(project).then(resolve, reject) };
        writes.push(write);
        onWrite?.(write);
      }),
  };
  const clock = manualScheduler();
  const store = createAppStore(
    testServices({
      repository,
      scheduler: clock,
      autosaveDelayMs: DELAY,
      autosaveMaxWaitMs: maxWaitMs,
    }),
  );
  await store.getState().boot({});
  expect(store.getState()).toMatchObject({ projectId: 'p1', saveStatus: 'idle' });
  return {
    store,
    clock,
    memory,
    writes,
    /** The next write the store asks for. */
    nextWrite: () => new Promise<Write>((resolve) => (onWrite = resolve)),
  };
}

/** Lets `write` through and resolves once the store has taken in how it went. */
function finish(store: AppStore, write: Write) {
  const done = new Promise<void>((resolve) => {
    const stop = store.subscribe((state) => {
      if (state.saveStatus === 'saving') return;
      stop();
      resolve();
    });
  });
  write.release();
  return done;
}

const type = (store: AppStore, text: string) => {
  store.getState().setFileText('agent.md', text);
};

describe('autosave', () => {
  it('saves once, the last text, when the edits have settled', async () => {
    const { store, clock, memory, writes, nextWrite } = await setup();
    for (const text of ['# A\n', '# AB\n', '# ABC\n']) {
      type(store, text);
      clock.advance(100);
    }
    // 300 ms after the first edit, 249 after the last: still settling, so nothing is written.
    clock.advance(DELAY - 100 - 1);
    expect(store.getState().saveStatus).toBe('idle');
    expect(writes).toEqual([]);

    const writing = nextWrite();
    clock.advance(1);
    expect(store.getState().saveStatus).toBe('saving');
    const write = await writing;
    expect(write.project.files['agent.md']).toBe('# ABC\n');
    await finish(store, write);
    expect(store.getState().saveStatus).toBe('saved');
    expect((await memory.get('p1'))?.files['agent.md']).toBe('# ABC\n');

    clock.advance(10 * DELAY);
    expect(store.getState().saveStatus).toBe('saved');
    expect(writes).toHaveLength(1);
  });

  it('starts the wait again when an edit comes during it', async () => {
    const { store, clock, writes, nextWrite } = await setup();
    type(store, '# A\n');
    clock.advance(DELAY - 50);
    type(store, '# AB\n');
    clock.advance(DELAY - 1);
    expect(store.getState().saveStatus).toBe('idle');
    expect(writes).toEqual([]);

    const writing = nextWrite();
    clock.advance(1);
    const write = await writing;
    expect(write.project.files['agent.md']).toBe('# AB\n');
    await finish(store, write);
    clock.advance(10 * DELAY);
    expect(writes).toHaveLength(1);
  });

  it('saves an edit made while a save was being written, once it settles too', async () => {
    const { store, clock, memory, writes, nextWrite } = await setup();
    type(store, '# A\n');
    const writing = nextWrite();
    clock.advance(DELAY);
    const first = await writing;
    type(store, '# AB\n');
    await finish(store, first);
    expect((await memory.get('p1'))?.files['agent.md']).toBe('# A\n');
    await settle(); // the first save's last steps (the lock between tabs) are done

    clock.advance(DELAY - 1);
    expect(writes).toHaveLength(1);
    const again = nextWrite();
    clock.advance(1);
    expect(store.getState().saveStatus).toBe('saving');
    const second = await again;
    expect(second.project.files['agent.md']).toBe('# AB\n');
    await finish(store, second);
    expect((await memory.get('p1'))?.files['agent.md']).toBe('# AB\n');
  });

  it('a save asked for during a write waits for it, so an older text never lands last', async () => {
    const { store, clock, memory, writes, nextWrite } = await setup();
    type(store, '# A\n');
    const writing = nextWrite();
    clock.advance(DELAY);
    const first = await writing;
    type(store, '# AB\n');
    const again = nextWrite();
    const hidden = store.getState().saveNow(); // the page hides during the write
    await settle();
    expect(writes).toHaveLength(1);
    await finish(store, first);
    const second = await again;
    expect(second.project.files['agent.md']).toBe('# AB\n');
    second.release();
    await hidden;
    expect((await memory.get('p1'))?.files['agent.md']).toBe('# AB\n');
    expect(store.getState().projectId).toBe('p1');
  });

  it('saves steady typing at the latest MAX_WAIT after the first unsaved key: a crash loses less than 500 ms', async () => {
    const { store, clock, memory, writes } = await setup(MAX_WAIT);
    const stored = async () => (await memory.get('p1'))?.files['agent.md'] ?? '';
    // One key every 170 ms for 8 s; each write finishes as soon as it is asked for.
    const typed: { at: number; text: string }[] = [];
    for (let at = 0; at <= 8000; at += 10) {
      if (at % 170 === 0) {
        const text = `# ${'x'.repeat(typed.length + 1)}\n`;
        type(store, text);
        typed.push({ at, text });
      }
      clock.advance(10);
      await settle();
      for (const write of writes.splice(0)) await finish(store, write);
      // The renderer dies now: the store holds all that was typed 500 ms ago.
      const due = typed.filter((key) => key.at <= at + 10 - 500).at(-1);
      if (due) expect((await stored()).length).toBeGreaterThanOrEqual(due.text.length);
    }
    expect(await stored()).toMatch(/^# x+\n$/);
  });
});

/** Lets the store's pending promise steps run (no timer moves). */
async function settle() {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
