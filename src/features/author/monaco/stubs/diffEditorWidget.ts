// Stands in for monaco-editor/esm/vs/editor/browser/widget/diffEditor/diffEditorWidget.js.
import { leftOutClass } from './leftOut.ts';

/** Monaco's standalone diff editor extends this; PolicyLab never creates one. */
export const DiffEditorWidget = leftOutClass("Monaco's diff editor");
