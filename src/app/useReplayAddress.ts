import { useEffect } from 'react';
import { withReplayPlace } from '../state/replayAddress.ts';
import { useAppStoreApi } from '../state/useAppStore.ts';

/**
 * Keeps the page's address on the Replay pane's place (run, dialogue, step), so a reload or a
 * bookmark returns to the same step. The address is replaced, not pushed: stepping through a
 * dialogue does not fill the browser's history.
 */
export function useReplayAddress() {
  const store = useAppStoreApi();
  useEffect(
    () =>
      store.subscribe((state, previous) => {
        if (
          state.replayRunId === previous.replayRunId &&
          state.replayDialogue === previous.replayDialogue &&
          state.replayStep === previous.replayStep
        )
          return;
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
      }),
    [store],
  );
}
