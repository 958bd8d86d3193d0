import { useLayoutEffect, useSyncExternalStore } from 'react';
import { STACK_BELOW_PX } from '../../state/paneLayout.ts';
import { useAppStoreApi } from '../../state/useAppStore.ts';

const QUERY = `(max-width: ${STACK_BELOW_PX - 0.02}px)`;

function subscribe(onChange: () => void) {
  const media = window.matchMedia(QUERY);
  media.addEventListener('change', onChange);
  return () => {
    media.removeEventListener('change', onChange);
  };
}

const isNarrow = () => window.matchMedia(QUERY).matches;

/**
 * Whether the window is too narrow for columns (the panes then stack and the page scrolls),
 * told to the store before the first paint so panes know they show.
 */
export function useStacked(): boolean {
  const store = useAppStoreApi();
  const stacked = useSyncExternalStore(subscribe, isNarrow);
  useLayoutEffect(() => {
    store.getState().setStacked(stacked);
  }, [store, stacked]);
  return stacked;
}
