import { useState } from 'react';
import type { PaneId } from '../state/slices/uiSlice.ts';
import { useAppStore, useSelectors } from '../state/useAppStore.ts';

/**
 * True once the pane has been on screen. Heavy pane content (the editor, the graph library) loads
 * on first reveal and then stays mounted, so hiding a pane never throws its state away.
 */
export function useRevealed(pane: PaneId): boolean {
  const visible = useAppStore(useSelectors().selectPaneVisible(pane));
  const [revealed, setRevealed] = useState(visible);
  if (visible && !revealed) setRevealed(true);
  return revealed || visible;
}
