// Loads Monaco's core, the parts of it PolicyLab's editor uses and the editor worker, bundled by
// Vite: nothing comes from a CDN. 'monaco-editor/editor/editor.main' would add every language,
// the TypeScript, CSS, HTML and JSON services with their workers and every contribution, and
// scripts/check-bundle-size.js fails the build when one of those workers is back. A feature left
// out here is simply absent (its keys do nothing): add the one users need from
// node_modules/monaco-editor/esm/vs/features. The imports stay in this file, which package.json
// lists among the modules with side effects; a module not listed there would be dropped whole.
import * as monaco from 'monaco-editor/editor/editor.api';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import { registerLanguages } from './languages.ts';

// Typing and moving the cursor, the editor widget, and the icon font its widgets draw with.
import 'monaco-editor/editor/browser/coreCommands';
import 'monaco-editor/features/codeEditor/register';
import 'monaco-editor/features/codicon/register';

// Editing: Ctrl+/ comments, brackets, multiple cursors (Ctrl+D, Alt+click), lines (move, copy,
// delete), words (Ctrl+←, Ctrl+Backspace), indentation (YAML pasted at the right depth),
// dragging a selection, cursor undo, clipboard and the context menu, Ctrl+M to let Tab leave.
import 'monaco-editor/features/comment/register';
import 'monaco-editor/features/bracketMatching/register';
import 'monaco-editor/features/multicursor/register';
import 'monaco-editor/features/linesOperations/register';
import 'monaco-editor/features/wordOperations/register';
import 'monaco-editor/features/indentation/register';
import 'monaco-editor/features/dnd/register';
import 'monaco-editor/features/cursorUndo/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/contextmenu/register';
import 'monaco-editor/features/toggleTabFocusMode/register';

// Finding and folding (Ctrl+F, Ctrl+H, the folding arrows of YAML's indented blocks).
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/folding/register';

// What languageFeatures.ts provides: completion, hover, go to definition (F12, Ctrl+click),
// references (Shift+F12, peeked), rename (F2) and Format Document (Shift+Alt+F); and the
// problems' squiggles, their hover and F8 to the next one.
import 'monaco-editor/editor/contrib/suggest/browser/suggestController';
import 'monaco-editor/features/hover/register';
import 'monaco-editor/features/gotoSymbol/register';
import 'monaco-editor/editor/contrib/gotoSymbol/browser/goToCommands';
import 'monaco-editor/features/referenceSearch/register';
import 'monaco-editor/features/rename/register';
import 'monaco-editor/features/format/register';
import 'monaco-editor/features/gotoError/register';

self.MonacoEnvironment = {
  getWorker: () => new EditorWorker(),
};

registerLanguages(monaco.languages);

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
