// Stands in for monaco-editor/esm/vs/editor/browser/widget/multiDiffEditor/multiDiffEditorWidget.js.
import { leftOutClass } from './leftOut.ts';

/** What `monaco.editor.createMultiFileDiffEditor` creates; PolicyLab never calls it. */
export const MultiDiffEditorWidget = leftOutClass("Monaco's multi-file diff editor");
