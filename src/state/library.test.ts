import { describe, expect, it } from 'vitest';
import { createMemoryRepository } from '../adapters/storage/projectRepository.ts';
import type { ProjectRepository } from '../core/index.ts';
import { toBundle } from '../core/index.ts';
import { MINI_FILES } from '../core/testing/miniProject.ts';
import { testExamples, testServices } from '../test/services.ts';
import { createAppStore } from './createAppStore.ts';

const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('boot', () => {
  it('opens the first example, saved, when this device has no projects', async () => {
    const services = testServices();
    const store = createAppStore(services);
    await store.getState().boot({});
    expect(store.getState()).toMatchObject({ ready: true, projectId: 'p1' });
    expect(store.getState().project.name).toBe('Mini refund desk');
    expect((await services.repository.list()).map((p) => p.name)).toEqual(['Mini refund desk']);
  });

  it('reopens the most recently changed project', async () => {
    const services = testServices();
    const first = createAppStore(services);
    await first.getState().boot({ fresh: true });
    first.getState().setFileText('agent.md', '# Mine\n');
    await first.getState().saveNow();
    const second = createAppStore(services);
    await second.getState().boot({});
    expect(second.getState().project.files['agent.md']).toBe('# Mine\n');
    expect(second.selectors.selectDirtyFiles(second.getState())).toEqual([]);
  });

  it('opens a bundle as a new project, and explains a bundle that is not one', async () => {
    const services = testServices({
      examples: {
        ...testExamples,
        loadBundle: () => Promise.resolve(toBundle({ name: 'Shared', files: MINI_FILES })),
      },
    });
    const store = createAppStore(services);
    await store.getState().boot({ bundle: '/shared.policylab.json' });
    expect(store.getState().project).toEqual({ name: 'Shared', files: MINI_FILES });
    expect((await services.repository.list()).map((p) => p.name)).toEqual(['Shared']);

    const hostile = createAppStore(
      testServices({
        examples: { ...testExamples, loadBundle: () => Promise.resolve('{"format": 1}') },
      }),
    );
    await hostile.getState().boot({ bundle: '/x.policylab.json' });
    expect(hostile.getState().libraryError).toMatch(/"format" must be "policylab\/1"/);
    expect(hostile.getState().ready).toBe(true);
  });

  it('opens the page as without a bundle that is not there, naming it, and makes no empty project', async () => {
    const repository = createMemoryRepository();
    const first = createAppStore(testServices({ repository }));
    await first.getState().boot({ example: 'mini' });
    const kept = first.getState().project;
    const mistyped = createAppStore(
      testServices({
        repository,
        examples: {
          ...testExamples,
          loadBundle: () =>
            Promise.reject(
              new Error(
                'There is no bundle at this address (the server answered with a web page).',
              ),
            ),
        },
      }),
    );
    await mistyped.getState().boot({ bundle: '/shraed.policylab.json' });
    expect(mistyped.getState().libraryError).toBe(
      '/shraed.policylab.json: There is no bundle at this address (the server answered with a web page).',
    );
    expect(mistyped.getState().project).toEqual(kept);
    expect((await repository.list()).map((p) => p.name)).toEqual([kept.name]);
  });

  it('still opens a project, and says why, when the example cannot be loaded', async () => {
    const store = createAppStore(testServices());
    await store.getState().boot({ example: 'nope' });
    expect(store.getState().ready).toBe(true);
    expect(store.getState().libraryError).toBe('There is no example called "nope".');
  });
});

describe('autosave', () => {
  it('saves each change after it settles, and marks files dirty until then', async () => {
    const services = testServices({ autosaveDelayMs: 1 });
    const store = createAppStore(services);
    await store.getState().boot({ fresh: true });
    store.getState().setFileText('rules.yaml', 'guards: {}\n');
    expect(store.selectors.selectDirtyFiles(store.getState())).toEqual(['rules.yaml']);
    await settle();
    await settle();
    expect(store.selectors.selectDirtyFiles(store.getState())).toEqual([]);
    expect(store.getState().saveStatus).toBe('saved');
    expect((await services.repository.get('p1'))?.files['rules.yaml']).toBe('guards: {}\n');
  });

  it('keeps the edits open and explains when the device refuses to save', async () => {
    const memory = createMemoryRepository();
    const full: ProjectRepository = {
      ...memory,
      put: () => Promise.reject(new Error('QuotaExceededError')),
    };
    const store = createAppStore(testServices({ repository: full }));
    await store.getState().boot({ fresh: true });
    store.getState().setFileText('agent.md', '# Unsaved\n');
    await store.getState().saveNow();
    expect(store.getState().saveStatus).toBe('error');
    expect(store.getState().libraryError).toMatch(
      /could not be saved on this device \(QuotaExceededError\)/,
    );
    expect(store.getState().project.files['agent.md']).toBe('# Unsaved\n');
    expect(store.selectors.selectDirtyFiles(store.getState())).toContain('agent.md');
  });
});

describe('the project list', () => {
  it('duplicates, deletes with undo, and opens another project when the open one goes', async () => {
    const services = testServices();
    const store = createAppStore(services);
    const ids = () =>
      store
        .getState()
        .projects.map((p) => p.id)
        .sort();
    await store.getState().boot({ example: 'mini' });
    await store.getState().duplicateProject('p1');
    expect(store.getState().project.name).toBe('Mini refund desk (copy)');
    expect(ids()).toEqual(['p1', 'p2']);

    await store.getState().deleteProject('p2');
    expect(store.getState().projectId).toBe('p1');
    expect(store.getState().projects.map((p) => p.id)).toEqual(['p1']);
    await store.getState().undoDelete();
    expect(ids()).toEqual(['p1', 'p2']);
    expect((await services.repository.get('p2'))?.name).toBe('Mini refund desk (copy)');
  });

  it('starts a new project when the last one is deleted', async () => {
    const store = createAppStore(testServices());
    await store.getState().boot({ fresh: true });
    await store.getState().deleteProject('p1');
    expect(store.getState().projectId).toBe('p2');
    expect(store.getState().project.name).toBe('Untitled project');
  });
});

describe('two tabs saving one project at once', () => {
  it('read and write one after the other, so the second keeps its text as a copy', async () => {
    const repository = createMemoryRepository();
    // One lock both tabs share, as the Web Locks API is shared by a browser's tabs.
    let held: Promise<unknown> = Promise.resolve();
    const exclusive = <T>(_name: string, run: () => Promise<T>): Promise<T> => {
      const mine = held.then(run);
      held = mine.catch(() => undefined);
      return mine;
    };
    // Each tab makes ids of its own, as crypto.randomUUID does.
    let made = 0;
    const newId = () => `id-${++made}`;
    const a = createAppStore(testServices({ repository, exclusive, newId }));
    await a.getState().boot({ example: 'mini' });
    const id = a.getState().projectId;
    const b = createAppStore(testServices({ repository, exclusive, newId }));
    await b.getState().boot({ projectId: id });
    a.getState().setFileText('agent.md', '# Typed in tab A\n');
    b.getState().setFileText('agent.md', '# Typed in tab B\n');
    await Promise.all([a.getState().saveNow(), b.getState().saveNow()]);
    const texts = await Promise.all(
      (await repository.list()).map(async (p) => (await repository.get(p.id))?.files['agent.md']),
    );
    // Neither text is lost: one is the project's, the other its conflicted copy's.
    expect(texts.sort()).toEqual(['# Typed in tab A\n', '# Typed in tab B\n']);
  });
});
