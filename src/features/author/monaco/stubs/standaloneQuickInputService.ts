// Stands in for monaco-editor/esm/vs/editor/standalone/browser/quickInput/standaloneQuickInputService.js.
import { leftOut } from './leftOut.ts';

const QUICK_INPUT = "Monaco's quick input (command palette and pickers)";

/**
 * Monaco creates its quick input service when the first editor starts, so this one is created
 * too; any use of it throws. Only commands PolicyLab leaves unreachable use it: the command
 * palette, go to line and symbol are not bundled, and "Go to Match...", "Indent Using Spaces"
 * and "Paste As..." have no key and no menu entry.
 */
export class StandaloneQuickInputService {
  get currentQuickInput(): never {
    throw leftOut(QUICK_INPUT);
  }
  get quickAccess(): never {
    throw leftOut(QUICK_INPUT);
  }
  pick(): never {
    throw leftOut(QUICK_INPUT);
  }
  input(): never {
    throw leftOut(QUICK_INPUT);
  }
  createQuickPick(): never {
    throw leftOut(QUICK_INPUT);
  }
  createInputBox(): never {
    throw leftOut(QUICK_INPUT);
  }
  toggle(): never {
    throw leftOut(QUICK_INPUT);
  }
  toggleHover(): never {
    throw leftOut(QUICK_INPUT);
  }
}
