// Stands in for monaco-editor/esm/vs/platform/actionWidget/browser/actionWidget.js.
import { createDecorator } from 'monaco-editor/platform/instantiation/common/instantiation';
import { registerSingleton } from 'monaco-editor/platform/instantiation/common/extensions';
import { leftOutClass } from './leftOut.ts';

/**
 * The service behind the code action (quick fix) and paste-as menus. Monaco's modules that take
 * it (the code action and copy-paste controllers) are imported but never registered as editor
 * contributions, so nothing asks for it; if something does, it throws on first use.
 */
export const IActionWidgetService = createDecorator('actionWidgetService');

// Delayed (1): created on first use, which is when it throws.
registerSingleton(
  IActionWidgetService,
  leftOutClass("Monaco's action menu (quick fixes, paste as)"),
  1,
);
