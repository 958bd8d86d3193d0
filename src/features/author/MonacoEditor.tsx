import { useEffect, useRef } from 'react';
import type { Diagnostic, ProjectFileName } from '../../core/index.ts';
import { PROJECT_FILES, diffText, policyAtOffset } from '../../core/index.ts';
import type { EditMeta } from '../../state/slices/projectSlice.ts';
import { graphSelectors } from '../../state/graphSelectors.ts';
import { selectActiveFile, selectEffectiveTheme } from '../../state/selectors.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import { fileUri, registerLanguageFeatures } from './monaco/languageFeatures.ts';
import { monaco } from './monaco/setup.ts';

type Editor = ReturnType<typeof monaco.editor.create>;
type Model = ReturnType<typeof monaco.editor.createModel>;

const SEVERITY = {
  error: monaco.MarkerSeverity.Error,
  warning: monaco.MarkerSeverity.Warning,
  info: monaco.MarkerSeverity.Info,
} as const;

/**
 * Typing a character or two (or a new line) joins the undo step before it; a paste, a
 * multi-cursor edit or a rename is a step of its own.
 */
function editMeta(changes: readonly { text: string; rangeLength: number }[]): EditMeta {
  const [only] = changes;
  // Typing over a selection counts as typing: the retyped text is one step with what follows.
  const typing =
    changes.length === 1 &&
    only !== undefined &&
    (only.text.length <= 2 || (only.rangeLength <= 2 && /^\r?\n[ \t]*$/.test(only.text)));
  return typing ? { origin: 'type', label: 'Typing' } : { origin: 'edit', label: 'Edit' };
}

/**
 * Monaco over the project's files: one model per file (each keeps its cursor and scroll), edits
 * written back to the store with their undo step, changes made elsewhere (the graph, undo, another
 * project) applied to the models, and the analysis shown as markers. Undo and redo are the
 * project's history, per file, shared with the graph.
 */
export function MonacoEditor() {
  const store = useAppStoreApi();
  const container = useRef<HTMLDivElement>(null);
  const editor = useRef<Editor | null>(null);
  const models = useRef(new Map<ProjectFileName, Model>());
  const viewStates = useRef(new Map<string, ReturnType<Editor['saveViewState']>>());
  const activeFile = useAppStore(selectActiveFile);
  const theme = useAppStore(selectEffectiveTheme);
  const projectId = useAppStore((s) => s.projectId);

  // The editor itself lives as long as the pane.
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    registerLanguageFeatures(monaco, store);
    const instance = monaco.editor.create(element, {
      model: null,
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 13,
      lineHeight: 20,
      wordWrap: 'on',
      scrollBeyondLastLine: false,
      tabSize: 2,
      renderWhitespace: 'selection',
      padding: { top: 8 },
      fixedOverflowWidgets: true,
      ariaLabel: 'Project file editor',
      // The textarea input is the mature path; EditContext is still marked experimental.
      editContext: false,
    });
    // Undo and redo go through the project's history, which the graph's edits share.
    const { KeyMod, KeyCode } = monaco;
    instance.addCommand(KeyMod.CtrlCmd | KeyCode.KeyZ, () => {
      store.getState().undo(store.getState().activeFile);
    });
    for (const keys of [
      KeyMod.CtrlCmd | KeyMod.Shift | KeyCode.KeyZ,
      KeyMod.CtrlCmd | KeyCode.KeyY,
    ]) {
      instance.addCommand(keys, () => {
        store.getState().redo(store.getState().activeFile);
      });
    }
    // The cursor in policies.yaml selects its policy in the graph.
    instance.onDidChangeCursorPosition((event) => {
      const model = instance.getModel();
      if (!model || model.uri.toString() !== fileUri(monaco, 'policies.yaml').toString()) return;
      const state = store.getState();
      const id = policyAtOffset(
        graphSelectors(store).selectPolicySpans(state),
        model.getOffsetAt(event.position),
      );
      // Only a policy the graph has: half-typed or unparsable text never drops the selection.
      const known = graphSelectors(store)
        .selectPolicyGraph(state)
        .nodes.some((n) => n.id === id);
      if (id !== undefined && known && state.selectedPolicy?.id !== id)
        state.selectPolicy(id, { centre: true });
    });
    editor.current = instance;
    return () => {
      instance.dispose();
      editor.current = null;
    };
  }, [store]);

  // One set of models per project: opening another project starts fresh undo histories.
  useEffect(() => {
    const { project } = store.getState();
    const own = new Map<ProjectFileName, Model>();
    const subscriptions: { dispose(): void }[] = [];
    for (const file of PROJECT_FILES) {
      const uri = fileUri(monaco, file.name);
      monaco.editor.getModel(uri)?.dispose();
      const model = monaco.editor.createModel(project.files[file.name], file.language, uri);
      subscriptions.push(
        model.onDidChangeContent((event) => {
          if (applying) return;
          store.getState().setFileText(file.name, model.getValue(), editMeta(event.changes));
        }),
      );
      own.set(file.name, model);
    }
    models.current = own;
    viewStates.current.clear();
    editor.current?.setModel(own.get(store.getState().activeFile) ?? null);

    // Text changed elsewhere (the graph, undo, extraction): apply just the changed span, so
    // cursors, folding and scroll positions stay where they were.
    let applying = false;
    const unsubscribe = store.subscribe((state, previous) => {
      if (state.project.files === previous.project.files) return;
      for (const [name, model] of own) {
        const diff = diffText(model.getValue(), state.project.files[name]);
        if (!diff) continue;
        const from = model.getPositionAt(diff.at);
        const to = model.getPositionAt(diff.at + diff.removed.length);
        applying = true;
        try {
          model.applyEdits([
            {
              range: new monaco.Range(from.lineNumber, from.column, to.lineNumber, to.column),
              text: diff.inserted,
            },
          ]);
        } finally {
          applying = false;
        }
      }
      const restored = state.restored;
      const instance = editor.current;
      if (restored && restored !== previous.restored && instance) {
        const model = own.get(restored.file);
        if (model && instance.getModel() === model) {
          const from = model.getPositionAt(restored.at);
          const to = model.getPositionAt(restored.at + restored.length);
          instance.setSelection(
            new monaco.Range(from.lineNumber, from.column, to.lineNumber, to.column),
          );
          instance.revealRangeInCenterIfOutsideViewport(
            new monaco.Range(from.lineNumber, from.column, to.lineNumber, to.column),
          );
        }
      }
    });
    return () => {
      unsubscribe();
      for (const s of subscriptions) s.dispose();
      for (const model of own.values()) model.dispose();
    };
  }, [store, projectId]);

  // Show the open file, keeping each file's cursor and scroll position across switches.
  useEffect(() => {
    const instance = editor.current;
    const model = models.current.get(activeFile);
    const current = instance?.getModel();
    if (!instance || !model || current === model) return;
    if (current) viewStates.current.set(current.uri.toString(), instance.saveViewState());
    instance.setModel(model);
    const saved = viewStates.current.get(model.uri.toString());
    if (saved) instance.restoreViewState(saved);
  }, [activeFile, projectId]);

  // Markers follow the analysis; a file whose text moved on since keeps its markers until the next.
  useEffect(() => {
    const apply = (diagnostics: readonly Diagnostic[]) => {
      for (const [name, model] of models.current) {
        monaco.editor.setModelMarkers(
          model,
          'policylab',
          diagnostics
            .filter((d) => d.file === name)
            .map((d) => ({
              severity: SEVERITY[d.severity],
              message: d.message,
              code: d.code,
              startLineNumber: d.line,
              startColumn: d.column,
              endLineNumber: d.endLine,
              endColumn: d.endColumn,
            })),
        );
      }
    };
    apply(store.getState().analysis?.diagnostics ?? []);
    return store.subscribe((state, previous) => {
      if (state.analysis !== previous.analysis) apply(state.analysis?.diagnostics ?? []);
    });
  }, [store, projectId]);

  // Requests to show a place (problems panel, go to definition) move the cursor there.
  useEffect(
    () =>
      store.subscribe((state, previous) => {
        const request = state.reveal;
        const instance = editor.current;
        if (!request || request === previous.reveal || !instance) return;
        const model = models.current.get(request.file);
        if (model && instance.getModel() !== model) instance.setModel(model);
        instance.setPosition({ lineNumber: request.line, column: request.column });
        instance.revealLineInCenterIfOutsideViewport(request.line);
        if (request.focus) instance.focus();
      }),
    [store],
  );

  useEffect(() => {
    monaco.editor.setTheme(theme === 'dark' ? 'policylab-dark' : 'policylab-light');
  }, [theme]);

  // "monaco-component" gives the host the theme's colour variables, which the context menu (drawn
  // in a shadow root beside the editor, not inside it) inherits for its background and text.
  return <div ref={container} className="monaco-host monaco-component" data-testid="monaco-host" />;
}
