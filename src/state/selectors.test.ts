import { describe, expect, it } from 'vitest';
import type { Project } from '../core/index.ts';
import { miniProject, miniWith } from '../core/testing/miniProject.ts';
import { testScenario } from '../core/testing/scenarios.ts';
import { testServices } from '../test/services.ts';
import type { AppState, AppStore } from './createAppStore.ts';
import { createAppStore } from './createAppStore.ts';
import { graphSelectors } from './graphSelectors.ts';
import { playSelectors } from './playSelectors.ts';
import { promptsSelectors } from './promptsSelectors.ts';
import { runSelectors } from './simulationSelectors.ts';

/** A store on `project` once its analysis is in, with a run and a game on screen. */
async function storeOn(project: Project): Promise<AppStore> {
  const store = createAppStore(testServices({ analysisDelayMs: 0 }), { project });
  await expect.poll(() => store.getState().analysis?.files).toBe(project.files);
  const run = { id: 'r', title: 'Run', events: [], live: false, error: null, savedVersion: 2 };
  store.setState({
    currentRun: run,
    play: {
      id: 'g',
      title: 'Play',
      seat: 'user',
      scenario: testScenario(),
      checks: [],
      prompt: '',
      opponent: 'm',
      events: [],
      live: true,
      turn: undefined,
      streaming: null,
      problem: null,
      error: null,
    },
  });
  return store;
}

type Selector = (state: AppState) => unknown;

/** Each memoised selector, found the way the app finds it for a store. */
const MEMOISED: Record<string, (store: AppStore) => Selector> = {
  selectHiddenPanes: (store) => store.selectors.selectHiddenPanes,
  selectDirtyFiles: (store) => store.selectors.selectDirtyFiles,
  selectPolicyGraph: (store) => graphSelectors(store).selectPolicyGraph,
  selectPolicySpans: (store) => graphSelectors(store).selectPolicySpans,
  selectRunReport: (store) => runSelectors(store).selectRunReport,
  selectPlayView: (store) => playSelectors(store).selectPlayView,
  selectPrompts: (store) => promptsSelectors(store).selectPrompts,
};

describe('memoised selectors', () => {
  it.each(Object.keys(MEMOISED))(
    '%s remembers its answer per store, whatever another store asks',
    async (name) => {
      const select = (store: AppStore) => (MEMOISED[name] ?? (() => () => null))(store);
      // Two stores that differ in everything these selectors read.
      const a = await storeOn(miniProject());
      const b = await storeOn(miniWith('policies.yaml', 'challenge: 3', 'challenge: 5'));
      a.getState().reportPanelSize('right', 0);
      a.getState().setFileText('agent.md', '# Changed');

      const first = { a: select(a)(a.getState()), b: select(b)(b.getState()) };
      expect(first.a).not.toBeNull();
      expect(first.a).not.toBe(first.b);
      for (let round = 0; round < 3; round++) {
        expect(select(a)(a.getState())).toBe(first.a);
        expect(select(b)(b.getState())).toBe(first.b);
      }
    },
  );
});
