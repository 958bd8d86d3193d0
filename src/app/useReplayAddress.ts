import { useEffect } from 'react';
import { withReplayPlace } from '../state/replayAddress.ts';
import { useAppStoreApi } from '../state/useAppStore.ts';

/** How long the address waits for the replay to settle before it is written. */
const ADDRESS_DELAY_MS = 120;

/**
 * Keeps the page's address on the Replay pane's place (run, dialogue, step), so a reload or a
 * bookmark returns to the same step. The address is replaced, not pushed: stepping through a
 * dialogue does not fill the browser's history.
 */
export function useReplayAddress() {
  const store = useAppStoreApi();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const write = () => {
      timer = undefined;
      const state = store.getState();
      const place =
        state.replayRunId === null
          ? null
          : {
              run: state.replayRunId,
              ...(state.replayDialogue !== null && {
                dialogue: state.replayDialogue,
                step: state.replayStep,
              }),
            };
      const href = withReplayPlace(window.location.href, place);
      if (href !== window.location.href) window.history.replaceState(null, '', href);
    };
    const stop = store.subscribe((state, previous) => {
      if (
        state.replayRunId === previous.replayRunId &&
        state.replayDialogue === previous.replayDialogue &&
        state.replayStep === previous.replayStep
      )
        return;
      // Written at most every ADDRESS_DELAY_MS: holding → down does not write it on every step.
      if (timer === undefined) timer = setTimeout(write, ADDRESS_DELAY_MS);
    });
    // Leaving the page (a reload) writes what is pending, so it returns to the last step.
    const flush = () => {
      if (timer === undefined) return;
      clearTimeout(timer);
      write();
    };
    window.addEventListener('pagehide', flush);
    return () => {
      stop();
      window.removeEventListener('pagehide', flush);
      if (timer !== undefined) {
        clearTimeout(timer);
        write();
      }
    };
  }, [store]);
}
