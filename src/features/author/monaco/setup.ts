// Loads Monaco with its editor worker, bundled by Vite: nothing comes from a CDN.
import 'monaco-editor/editor/editor.main';
import * as monaco from 'monaco-editor/editor/editor.api';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';

self.MonacoEnvironment = {
  getWorker: () => new EditorWorker(),
};

// Editor colours matched to the surfaces of theme.css, so the editor sits flush in its pane.
monaco.editor.defineTheme('policylab-light', {
  base: 'vs',
  inherit: true,
  rules: [],
  colors: {
    'editor.background': '#ffffff',
    'editor.lineHighlightBackground': '#f6f7f9',
    'editorLineNumber.foreground': '#a3aab5',
    'editorLineNumber.activeForeground': '#1b1f24',
  },
});
monaco.editor.defineTheme('policylab-dark', {
  base: 'vs-dark',
  inherit: true,
  rules: [],
  colors: {
    'editor.background': '#16191f',
    'editor.lineHighlightBackground': '#1d2129',
    'editorLineNumber.foreground': '#5a6170',
    'editorLineNumber.activeForeground': '#e5e8ec',
  },
});

export { monaco };
