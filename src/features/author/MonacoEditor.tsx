import { useEffect, useRef } from 'react';
import type { ProjectFileName } from '../../core/index.ts';
import { PROJECT_FILES } from '../../core/index.ts';
import { selectActiveFile, selectEffectiveTheme } from '../../state/selectors.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import { monaco } from './monaco.ts';

type Editor = ReturnType<typeof monaco.editor.create>;
type Model = ReturnType<typeof monaco.editor.createModel>;

/**
 * Monaco over the project's files: one model per file (so each keeps its own undo history and
 * cursor), the open file's model in the editor, and every edit written back to the store.
 */
export function MonacoEditor() {
  const store = useAppStoreApi();
  const container = useRef<HTMLDivElement>(null);
  const editor = useRef<Editor | null>(null);
  const models = useRef(new Map<ProjectFileName, Model>());
  const viewStates = useRef(new Map<string, ReturnType<Editor['saveViewState']>>());
  const activeFile = useAppStore(selectActiveFile);
  const theme = useAppStore(selectEffectiveTheme);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const { project, activeFile: firstFile } = store.getState();
    const subscriptions: { dispose(): void }[] = [];
    for (const file of PROJECT_FILES) {
      const uri = monaco.Uri.parse(`file:///${file.name}`);
      monaco.editor.getModel(uri)?.dispose();
      const model = monaco.editor.createModel(project.files[file.name], file.language, uri);
      subscriptions.push(
        model.onDidChangeContent(() => {
          store.getState().setFileText(file.name, model.getValue());
        }),
      );
      models.current.set(file.name, model);
    }
    const instance = monaco.editor.create(element, {
      model: models.current.get(firstFile) ?? null,
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 13,
      lineHeight: 20,
      wordWrap: 'on',
      scrollBeyondLastLine: false,
      tabSize: 2,
      renderWhitespace: 'selection',
      padding: { top: 8 },
      ariaLabel: 'Project file editor',
      // The textarea input is the mature path; EditContext is still marked experimental.
      editContext: false,
    });
    editor.current = instance;
    const ownModels = models.current;
    return () => {
      for (const s of subscriptions) s.dispose();
      instance.dispose();
      for (const model of ownModels.values()) model.dispose();
      ownModels.clear();
      editor.current = null;
    };
  }, [store]);

  useEffect(() => {
    const instance = editor.current;
    const model = models.current.get(activeFile);
    const current = instance?.getModel();
    if (!instance || !model || current === model) return;
    // Keep each file's cursor and scroll position across switches.
    if (current) viewStates.current.set(current.uri.toString(), instance.saveViewState());
    instance.setModel(model);
    const saved = viewStates.current.get(model.uri.toString());
    if (saved) instance.restoreViewState(saved);
  }, [activeFile]);

  useEffect(() => {
    monaco.editor.setTheme(theme === 'dark' ? 'policylab-dark' : 'policylab-light');
  }, [theme]);

  return <div ref={container} className="monaco-host" data-testid="monaco-host" />;
}
