import { PANE_IDS } from '../state/slices/uiSlice.ts';
import { PANES, paneShortcut } from './panes.ts';

/** Every global shortcut, as the shortcuts dialog lists it. */
export const SHORTCUTS: readonly { keys: string; action: string }[] = [
  ...PANE_IDS.map((pane) => ({ keys: paneShortcut(pane), action: `Go to ${PANES[pane].title}` })),
  { keys: 'F6', action: 'Next pane' },
  { keys: 'Shift+F6', action: 'Previous pane' },
  { keys: 'Alt+M', action: 'Maximize or restore the current pane' },
  { keys: 'Esc', action: 'Restore panes after maximizing' },
  { keys: 'Ctrl+M', action: 'In the editor: make Tab move focus instead of indenting' },
  { keys: '← / →', action: 'In a replayed dialogue: one step back or forward' },
  { keys: 'Home / End', action: 'In a replayed dialogue: the first or the last step' },
  { keys: 'n / N', action: 'In a replayed dialogue: the next or previous finding' },
  { keys: 'c / C', action: 'In a replayed dialogue: the next or previous tool call' },
  { keys: '?', action: 'Show this list' },
];
