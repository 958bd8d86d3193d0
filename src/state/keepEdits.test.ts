import { describe, expect, it } from 'vitest';
import { createMemoryRepository } from '../adapters/storage/projectRepository.ts';
import { createMemoryJournal } from '../adapters/storage/unsavedJournal.ts';
import { memoryTabPair } from '../adapters/tabChannel.ts';
import type { ProjectRepository, TabChannel, UnsavedJournal } from '../core/index.ts';
import { fingerprint } from '../core/index.ts';
import { MINI_FILES } from '../core/testing/miniProject.ts';
import { manualScheduler } from '../test/manualScheduler.ts';
import { testServices } from '../test/services.ts';
import type { AppStore } from './createAppStore.ts';
import { createAppStore } from './createAppStore.ts';

const DELAY = 250;

/** The device: one project store and one journal, shared by every tab and every page load. */
function device() {
  const repository = createMemoryRepository([
    {
      id: 'p1',
      name: 'Mine',
      files: MINI_FILES,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    },
  ]);
  return { repository, journal: createMemoryJournal() };
}

/** A page load on `on`: its own timers, its own tab id; writes may be held from the start. */
async function page(
  on: { repository: ProjectRepository; journal: UnsavedJournal },
  tab: string,
  options: { tabs?: TabChannel; holdWrites?: boolean } = {},
) {
  const clock = manualScheduler();
  let ids = 0;
  const repository: ProjectRepository = options.holdWrites
    ? { ...on.repository, put: () => new Promise<void>(() => undefined) }
    : on.repository;
  const store = createAppStore(
    testServices({
      repository,
      journal: on.journal,
      scheduler: clock,
      autosaveDelayMs: DELAY,
      tab,
      newId: () => `${tab}-new${++ids}`,
      ...(options.tabs && { tabs: options.tabs }),
    }),
  );
  await store.getState().boot({});
  return { store, clock };
}

const agentText = (store: AppStore) => store.getState().project.files['agent.md'];

/** Lets the stores' pending promise steps run (no timer moves). */
async function settle() {
  for (let i = 0; i < 40; i++) await Promise.resolve();
}

describe('a reload right after typing', () => {
  it('keeps the last key: the page hides, the journal has it, the next load puts it back and saves it', async () => {
    const here = device();
    // The IndexedDB write never finishes: the page is gone before it does.
    const before = await page(here, 't1', { holdWrites: true });
    before.store.getState().setFileText('agent.md', '# Typed at the last moment\n');
    before.store.getState().keepUnsaved(); // what `pagehide` does, synchronously
    void before.store.getState().saveNow();
    expect((await here.repository.get('p1'))?.files['agent.md']).toBe(MINI_FILES['agent.md']);

    const after = await page(here, 't2');
    expect(agentText(after.store)).toBe('# Typed at the last moment\n');
    expect(after.store.getState().unsavedNotice?.message).toContain('agent.md');
    await settle();
    expect((await here.repository.get('p1'))?.files['agent.md']).toBe(
      '# Typed at the last moment\n',
    );
    expect(here.journal.list()).toEqual([]);
  });

  it('keeps policies moved on the graph just before the reload, over positions saved meanwhile', async () => {
    const here = device();
    await here.repository.put({
      ...((await here.repository.get('p1')) as NonNullable<
        Awaited<ReturnType<ProjectRepository['get']>>
      >),
      layout: { 'refund-window': { x: 7, y: 7 } },
    });
    const before = await page(here, 't1', { holdWrites: true });
    before.store.getState().placePolicies({ 'verify-identity': { x: 5, y: 6 } });
    before.store.getState().keepUnsaved();
    void before.store.getState().saveNow();

    const after = await page(here, 't2');
    const kept = { 'refund-window': { x: 7, y: 7 }, 'verify-identity': { x: 5, y: 6 } };
    expect(after.store.getState().project.layout).toEqual(kept);
    expect(after.store.getState().unsavedNotice?.message).toContain('graph positions');
    await settle();
    expect((await here.repository.get('p1'))?.layout).toEqual(kept);
    expect(here.journal.list()).toEqual([]);
  });

  it('keeps keys typed during a save that finishes after the reload, with no conflicted copy', async () => {
    const here = device();
    // The first page's write is held, then lands after the page is gone (IndexedDB finishes a
    // write begun before unload); the page never hears that it did.
    let land: (() => Promise<void>) | undefined;
    const held: ProjectRepository = {
      ...here.repository,
      put: (project) => {
        land = () => here.repository.put(project);
        return new Promise<void>(() => undefined);
      },
    };
    const before = await page({ ...here, repository: held }, 't1');
    before.store.getState().setFileText('agent.md', '# Typed then reloa');
    void before.store.getState().saveNow();
    await settle();
    expect(land).toBeDefined();
    before.store.getState().setFileText('agent.md', '# Typed then reloaded');
    before.store.getState().keepUnsaved(); // pagehide
    await land?.();
    expect((await here.repository.get('p1'))?.files['agent.md']).toBe('# Typed then reloa');

    const after = await page(here, 't2');
    expect(agentText(after.store)).toBe('# Typed then reloaded');
    expect(after.store.getState().unsavedNotice?.message).not.toContain('conflicted');
    expect((await here.repository.list()).map((p) => p.name)).toEqual(['Mine']);
  });

  it('keeps what a crash interrupted: each save first writes the journal', async () => {
    const here = device();
    const before = await page(here, 't1', { holdWrites: true });
    before.store.getState().setFileText('agent.md', '# Steady typing\n');
    before.clock.advance(DELAY);
    // The renderer dies during the write: no pagehide, no finished save.
    const after = await page(here, 't2');
    expect(agentText(after.store)).toBe('# Steady typing\n');
  });

  it('reopens the project that had the unsaved edits, even when another was changed later', async () => {
    const here = device();
    await here.repository.put({
      id: 'p2',
      name: 'Newer',
      files: MINI_FILES,
      createdAt: '2026-02-01T00:00:00.000Z',
      updatedAt: '2026-02-01T00:00:00.000Z',
    });
    here.journal.write({
      projectId: 'p1',
      tab: 'gone',
      name: 'Mine',
      at: '2026-03-01T00:00:00.000Z',
      files: { 'tools.yaml': 'tools: []\n' },
      base: { 'tools.yaml': fingerprint(MINI_FILES['tools.yaml']) },
    });
    const after = await page(here, 't2');
    expect(after.store.getState().projectId).toBe('p1');
    expect(after.store.getState().project.files['tools.yaml']).toBe('tools: []\n');
  });

  it('keeps kept edits that another tab overwrote since as a copy, never over the newer text', async () => {
    const here = device();
    here.journal.write({
      projectId: 'p1',
      tab: 'gone',
      name: 'Mine',
      at: '2026-03-01T00:00:00.000Z',
      files: { 'agent.md': '# Kept\n' },
      base: { 'agent.md': fingerprint('# An older text\n') },
    });
    const after = await page(here, 't2');
    expect(agentText(after.store)).toBe(MINI_FILES['agent.md']);
    const copy = (await here.repository.list()).find((p) => p.name === 'Mine (conflicted copy)');
    expect((await here.repository.get(copy?.id ?? ''))?.files['agent.md']).toBe('# Kept\n');
    expect(after.store.getState().unsavedNotice?.message).toContain('Mine (conflicted copy)');
  });
});

describe('two tabs on one project', () => {
  it('a clean tab takes the other’s save and says so; typing there keeps both edits', async () => {
    const here = device();
    const [toA, toB] = memoryTabPair();
    const a = await page(here, 'A', { tabs: toA });
    const b = await page(here, 'B', { tabs: toB });
    a.store.getState().setFileText('agent.md', `${MINI_FILES['agent.md']}From A\n`);
    a.clock.advance(DELAY);
    await settle();
    expect(agentText(b.store)).toBe(`${MINI_FILES['agent.md']}From A\n`);
    expect(b.store.getState().unsavedNotice?.message).toContain('changed in another tab');

    b.store.getState().setFileText('agent.md', `${MINI_FILES['agent.md']}From A\nFrom B\n`);
    b.clock.advance(DELAY);
    await settle();
    const reloaded = await page(here, 'A2');
    expect(agentText(reloaded.store)).toBe(`${MINI_FILES['agent.md']}From A\nFrom B\n`);
  });

  it('a tab with unsaved typing keeps it when the other tab saves; its own save then keeps both', async () => {
    const here = device();
    const [toA, toB] = memoryTabPair();
    const a = await page(here, 'A', { tabs: toA });
    const b = await page(here, 'B', { tabs: toB });
    b.store.getState().setFileText('agent.md', '# From B\n');
    a.store.getState().setFileText('agent.md', '# From A\n');
    a.clock.advance(DELAY);
    await settle();
    expect(agentText(b.store)).toBe('# From B\n');
    b.clock.advance(DELAY);
    await settle();
    expect((await here.repository.get('p1'))?.files['agent.md']).toBe('# From A\n');
    const { projectId, unsavedNotice } = b.store.getState();
    expect((await here.repository.get(projectId))?.files['agent.md']).toBe('# From B\n');
    expect(unsavedNotice?.kind).toBe('conflict');
  });

  it('edits to different files from two tabs are merged, and the tab that merged says so', async () => {
    const here = device();
    const a = await page(here, 'A');
    const b = await page(here, 'B');
    a.store.getState().setFileText('agent.md', '# From A\n');
    b.store.getState().setFileText('tools.yaml', 'tools: []\n');
    a.clock.advance(DELAY);
    await settle();
    b.clock.advance(DELAY);
    await settle();
    const stored = await here.repository.get('p1');
    expect(stored?.files['agent.md']).toBe('# From A\n');
    expect(stored?.files['tools.yaml']).toBe('tools: []\n');
    expect(agentText(b.store)).toBe('# From A\n');
    expect(b.store.getState().unsavedNotice?.message).toContain('agent.md');
  });

  it('one file changed in both tabs: neither text is dropped, the second tab’s is a copy open there', async () => {
    const here = device();
    const a = await page(here, 'A');
    const b = await page(here, 'B');
    a.store.getState().setFileText('agent.md', '# From A\n');
    b.store.getState().setFileText('agent.md', '# From B\n');
    a.clock.advance(DELAY);
    await settle();
    b.clock.advance(DELAY);
    await settle();

    expect((await here.repository.get('p1'))?.files['agent.md']).toBe('# From A\n');
    const { projectId, project, unsavedNotice } = b.store.getState();
    expect(project.name).toBe('Mine (conflicted copy)');
    expect((await here.repository.get(projectId))?.files['agent.md']).toBe('# From B\n');
    expect(unsavedNotice).toMatchObject({ kind: 'conflict', open: { id: 'p1', name: 'Mine' } });
    expect(unsavedNotice?.message).toContain('another tab');

    // Typing on in B goes to the copy; A's text stays as it was.
    b.store.getState().setFileText('agent.md', '# From B, more\n');
    b.clock.advance(DELAY);
    await settle();
    expect((await here.repository.get(projectId))?.files['agent.md']).toBe('# From B, more\n');
    expect((await here.repository.get('p1'))?.files['agent.md']).toBe('# From A\n');
  });
});

describe('names and graph positions', () => {
  it('a policy moved on the graph is saved, with nothing typed', async () => {
    const here = device();
    const a = await page(here, 'A');
    a.store.getState().placePolicies({ 'verify-identity': { x: 5, y: 6 } });
    a.clock.advance(DELAY);
    await settle();
    expect((await here.repository.get('p1'))?.layout).toEqual({
      'verify-identity': { x: 5, y: 6 },
    });
    const reloaded = await page(here, 'A2');
    expect(reloaded.store.getState().project.layout).toEqual({ 'verify-identity': { x: 5, y: 6 } });
  });

  it('a rename and moves in one tab, moves and typing in another: every change is kept, and said', async () => {
    const here = device();
    const a = await page(here, 'A');
    const b = await page(here, 'B');
    a.store.getState().renameProject('Refunds');
    a.store.getState().placePolicies({ 'verify-identity': { x: 1, y: 1 } });
    b.store.getState().placePolicies({ 'refund-window': { x: 2, y: 2 } });
    b.store.getState().setFileText('agent.md', '# From B\n');
    a.clock.advance(DELAY);
    await settle();
    b.clock.advance(DELAY);
    await settle();

    const stored = await here.repository.get('p1');
    expect(stored).toMatchObject({
      name: 'Refunds',
      files: { 'agent.md': '# From B\n' },
      layout: { 'verify-identity': { x: 1, y: 1 }, 'refund-window': { x: 2, y: 2 } },
    });
    const { project, unsavedNotice } = b.store.getState();
    expect(project.name).toBe('Refunds');
    expect(project.layout).toEqual(stored?.layout);
    expect(unsavedNotice?.message).toBe(
      '“Refunds” was also changed in another tab; merged in here: its new name and where it put 1 policy on the graph.',
    );
    // B is now clean: it saves nothing more, and A's next save keeps B's move.
    expect(b.store.getState().saveStatus).toBe('saved');
    a.store.getState().placePolicies({ 'verify-identity': { x: 3, y: 3 } });
    a.clock.advance(DELAY);
    await settle();
    expect((await here.repository.get('p1'))?.layout).toEqual({
      'verify-identity': { x: 3, y: 3 },
      'refund-window': { x: 2, y: 2 },
    });
  });

  it('the same policy moved in both tabs keeps the later move; the name renamed in both keeps the later', async () => {
    const here = device();
    const a = await page(here, 'A');
    const b = await page(here, 'B');
    a.store.getState().renameProject('From A');
    a.store.getState().placePolicies({ 'verify-identity': { x: 1, y: 1 } });
    b.store.getState().renameProject('From B');
    b.store.getState().placePolicies({ 'verify-identity': { x: 9, y: 9 } });
    a.clock.advance(DELAY);
    await settle();
    b.clock.advance(DELAY);
    await settle();
    expect(await here.repository.get('p1')).toMatchObject({
      name: 'From B',
      layout: { 'verify-identity': { x: 9, y: 9 } },
    });
  });

  it('a clean tab takes the other’s new name and positions', async () => {
    const here = device();
    const [toA, toB] = memoryTabPair();
    const a = await page(here, 'A', { tabs: toA });
    const b = await page(here, 'B', { tabs: toB });
    a.store.getState().renameProject('Refunds');
    a.store.getState().placePolicies({ 'verify-identity': { x: 4, y: 4 } });
    a.clock.advance(DELAY);
    await settle();
    expect(b.store.getState().project).toMatchObject({
      name: 'Refunds',
      layout: { 'verify-identity': { x: 4, y: 4 } },
    });
    expect(b.store.getState().unsavedNotice?.message).toContain('changed in another tab');
  });
});

describe('a full disk', () => {
  it('names the way to export the project', async () => {
    const here = device();
    const full: ProjectRepository = {
      ...here.repository,
      put: () => Promise.reject(new DOMException('Quota exceeded', 'QuotaExceededError')),
    };
    const { store } = await page({ ...here, repository: full }, 'A');
    store.getState().setFileText('agent.md', '# Lots\n');
    await store.getState().saveNow();
    expect(store.getState().saveStatus).toBe('error');
    expect(store.getState().libraryError).toContain('Share → Download bundle (.policylab.json)');
    // What was typed is still in the journal for the next load.
    expect(here.journal.list()).toMatchObject([{ files: { 'agent.md': '# Lots\n' } }]);
  });

  it('a journal that cannot be written says what is at risk and how to export', async () => {
    const here = device();
    const full: UnsavedJournal = { ...here.journal, write: () => false };
    const { store } = await page({ ...here, journal: full }, 'A');
    store.getState().setFileText('agent.md', '# Lots\n');
    store.getState().keepUnsaved();
    expect(store.getState().storageWarning).toContain('could lose the last edits');
    expect(store.getState().storageWarning).toContain('Share → Download bundle (.policylab.json)');
  });
});
