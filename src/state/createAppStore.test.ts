import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../adapters/storage/preferences.ts';
import { testServices } from '../test/services.ts';
import { createAppStore } from './createAppStore.ts';
import { selectEffectiveTheme } from './selectors.ts';

function freshStore(saved: Record<string, string> = {}) {
  const preferences = createMemoryStore(saved);
  return { store: createAppStore(testServices({ preferences })), preferences };
}

describe('theme', () => {
  it('follows the system until a choice is made, and remembers the choice', () => {
    const { store, preferences } = freshStore();
    store.getState().setSystemPrefersDark(true);
    expect(selectEffectiveTheme(store.getState())).toBe('dark');
    store.getState().setThemePreference('light');
    expect(selectEffectiveTheme(store.getState())).toBe('light');
    expect(preferences.getItem('policylab.theme')).toBe('light');
    expect(createAppStore(testServices({ preferences })).getState().themePreference).toBe('light');
  });

  it('ignores a saved theme it does not know', () => {
    expect(freshStore({ 'policylab.theme': 'sepia' }).store.getState().themePreference).toBe(
      'system',
    );
  });
});

describe('pane layout', () => {
  it('knows before the first render which panes a saved layout hides', () => {
    const { store } = freshStore({
      'policylab.layout.v2.workbench': JSON.stringify({ author: 0, work: 100 }),
      'policylab.layout.v2.work': JSON.stringify({ graph: 0, desk: 100 }),
      'policylab.layout.v2.tabs': JSON.stringify({ desk: 'replay' }),
    });
    expect(store.selectors.selectHiddenPanes(store.getState())).toEqual([
      'author',
      'graph',
      'simulate',
      'share',
    ]);
    expect(store.selectors.selectPaneVisible('replay')(store.getState())).toBe(true);
    // F6 still reaches the panes behind Replay's tab, not the collapsed ones.
    expect(store.selectors.selectCollapsedPanes(store.getState())).toEqual(['author', 'graph']);
  });

  it('never reads a layout saved for the old three columns', () => {
    const { store } = freshStore({
      'policylab.layout.workbench': JSON.stringify({ author: 0, middle: 60, right: 40 }),
      'policylab.layout.middle': JSON.stringify({ graph: 0, simulate: 100 }),
      'policylab.layout.v2.workbench': JSON.stringify({ author: 0, middle: 60, right: 40 }),
    });
    expect(store.getState().panelSizes).toEqual({});
    expect(store.getState().readLayout('workbench')).toBeUndefined();
    expect(store.selectors.selectHiddenPanes(store.getState())).toEqual(['replay', 'share']);
  });

  it('derives hidden panes from reported sizes and tabs, the same array while they hold', () => {
    const { store } = freshStore();
    const before = store.selectors.selectHiddenPanes(store.getState());
    expect(store.selectors.selectHiddenPanes(store.getState())).toBe(before);
    store.getState().reportPanelSize('desk', 0);
    expect(store.selectors.selectHiddenPanes(store.getState())).toEqual([
      'simulate',
      'replay',
      'share',
    ]);
    store.getState().reportPanelSize('desk', 30);
    store.getState().setPaneTab('desk', 'share');
    expect(store.selectors.selectHiddenPanes(store.getState())).toEqual(['simulate', 'replay']);
  });

  it('shows every pane when they stack in a narrow window, unless one is maximized', () => {
    const { store } = freshStore();
    store.getState().setStacked(true);
    expect(store.selectors.selectHiddenPanes(store.getState())).toEqual([]);
    store.getState().setMaximizedPane('graph');
    expect(store.selectors.selectHiddenPanes(store.getState())).toEqual([
      'author',
      'simulate',
      'replay',
      'share',
    ]);
  });

  it('remembers the tab in front, and forgets layouts and tabs on reset', () => {
    const { store, preferences } = freshStore();
    store.getState().setPaneTab('desk', 'replay');
    expect(createAppStore(testServices({ preferences })).getState().paneTabs).toEqual({
      desk: 'replay',
    });
    store.getState().writeLayout('workbench', { author: 50, work: 50 });
    store.getState().reportPanelSize('author', 0);
    store.getState().resetLayout();
    expect(preferences.getItem('policylab.layout.v2.workbench')).toBeNull();
    expect(preferences.getItem('policylab.layout.v2.tabs')).toBeNull();
    expect(store.getState().layoutGeneration).toBe(1);
    expect(store.selectors.selectHiddenPanes(store.getState())).toEqual(['replay', 'share']);
  });
});
