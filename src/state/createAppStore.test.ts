import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../adapters/storage/preferences.ts';
import { testServices } from '../test/services.ts';
import { createAppStore } from './createAppStore.ts';
import { selectEffectiveTheme } from './selectors.ts';
import { parseLayout } from './slices/uiSlice.ts';

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
      'policylab.layout.workbench': JSON.stringify({ author: 0, middle: 60, right: 40 }),
      'policylab.layout.middle': JSON.stringify({ graph: 0, simulate: 100 }),
    });
    expect(store.selectors.selectHiddenPanes(store.getState())).toEqual(['author', 'graph']);
    expect(store.selectors.selectPaneVisible('simulate')(store.getState())).toBe(true);
  });

  it('derives hidden panes from reported sizes and returns the same array while they hold', () => {
    const { store } = freshStore();
    const before = store.selectors.selectHiddenPanes(store.getState());
    expect(store.selectors.selectHiddenPanes(store.getState())).toBe(before);
    store.getState().reportPanelSize('right', 0);
    expect(store.selectors.selectHiddenPanes(store.getState())).toEqual(['replay', 'share']);
    store.getState().reportPanelSize('right', 30);
    expect(store.selectors.selectHiddenPanes(store.getState())).toEqual([]);
  });

  it('forgets saved layouts on reset and asks the workbench to remount', () => {
    const { store, preferences } = freshStore();
    store.getState().writeLayout('workbench', { author: 50, middle: 25, right: 25 });
    store.getState().reportPanelSize('author', 0);
    store.getState().resetLayout();
    expect(preferences.getItem('policylab.layout.workbench')).toBeNull();
    expect(store.getState().layoutGeneration).toBe(1);
    expect(store.selectors.selectHiddenPanes(store.getState())).toEqual([]);
  });
});

describe('parseLayout', () => {
  it('accepts a map of sizes and rejects everything else', () => {
    expect(parseLayout('{"a":40,"b":60}')).toEqual({ a: 40, b: 60 });
    for (const junk of [
      null,
      '',
      'nope',
      '[]',
      '{}',
      '{"a":"40"}',
      '{"a":-1}',
      '{"a":101}',
      'null',
    ]) {
      expect(parseLayout(junk)).toBeUndefined();
    }
  });
});

describe('project', () => {
  it('renames with a cleaned name and refuses a blank one', () => {
    const { store } = freshStore();
    expect(store.getState().renameProject('  Store   orders ')).toBe(true);
    expect(store.getState().project.name).toBe('Store orders');
    expect(store.getState().renameProject('   ')).toBe(false);
    expect(store.getState().project.name).toBe('Store orders');
  });

  it('keeps each file text apart and does not notify when nothing changed', () => {
    const { store } = freshStore();
    let notified = 0;
    store.subscribe(() => (notified += 1));
    store.getState().setFileText('tools.yaml', 'tools: [lookup]\n');
    store.getState().setFileText('tools.yaml', 'tools: [lookup]\n');
    expect(notified).toBe(1);
    expect(store.getState().project.files['tools.yaml']).toBe('tools: [lookup]\n');
    expect(store.getState().project.files['agent.md']).toContain('# Untitled project');
  });
});

describe('undo history', () => {
  it('undoes per file, whichever view made the change, and points at what changed', () => {
    const { store } = freshStore();
    const before = store.getState().project.files;
    store.getState().setFileText('policies.yaml', 'policies: []\nrelations: []\n', {
      origin: 'graph',
      label: 'Connect a and b',
    });
    store.getState().setFileText('tools.yaml', 'tools: [lookup]\n', { origin: 'type' });
    expect(store.getState().undo('policies.yaml')).toBe(true);
    expect(store.getState().project.files['policies.yaml']).toBe(before['policies.yaml']);
    expect(store.getState().project.files['tools.yaml']).toBe('tools: [lookup]\n');
    expect(store.getState().restored).toMatchObject({ file: 'policies.yaml' });
    expect(store.getState().undo('policies.yaml')).toBe(false);
    expect(store.getState().redo('policies.yaml')).toBe(true);
    expect(store.getState().project.files['policies.yaml']).toBe('policies: []\nrelations: []\n');
  });

  it('starts empty for another project', async () => {
    const { store } = freshStore();
    store.getState().setFileText('agent.md', '# Changed\n');
    await store.getState().newProject();
    expect(store.getState().undo()).toBe(false);
  });
});

describe('storage problems', () => {
  it('turns a full quota into a message for the status bar', () => {
    const { store } = freshStore();
    store.getState().reportStorageProblem('full');
    expect(store.getState().storageWarning).toMatch(/storage is full/);
  });
});

describe('a stale undo history', () => {
  it('is dropped instead of failing on every Ctrl+Z', () => {
    const { store } = freshStore();
    store.getState().setFileText('agent.md', '# One\n', { origin: 'edit' });
    // Text changed behind the history's back (as a bug or a lost write would).
    store.setState((s) => ({
      project: { ...s.project, files: { ...s.project.files, 'agent.md': 'x' } },
    }));
    expect(store.getState().undo('agent.md')).toBe(false);
    expect(store.getState().history.undo).toHaveLength(0);
    expect(store.getState().project.files['agent.md']).toBe('x');
  });
});
