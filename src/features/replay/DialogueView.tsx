import type { KeyboardEvent } from 'react';
import { useEffect, useRef } from 'react';
import type { Replay } from '../../core/index.ts';
import { firstStepFor, nextStep } from '../../core/index.ts';
import { replaySelectors } from '../../state/replaySelectors.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import { ComparePane } from './ComparePane.tsx';
import { Conversation } from './Conversation.tsx';
import { DialogueActions } from './DialogueActions.tsx';
import { Inspector } from './Inspector.tsx';
import { ScenarioCard } from './ScenarioCard.tsx';
import { Stepper } from './Stepper.tsx';
import { isCall, isFinding } from './steps.ts';

/** Where a key press moves the replay, or undefined when the key is not the replay's. */
function keyStep(replay: Replay, step: number, event: KeyboardEvent): number | undefined {
  const last = replay.steps.length - 1;
  switch (event.key) {
    case 'ArrowRight':
      return Math.min(last, step + 1);
    case 'ArrowLeft':
      return Math.max(0, step - 1);
    case 'Home':
      return 0;
    case 'End':
      return last;
    case 'n':
      return nextStep(replay, step, 1, isFinding) ?? step;
    case 'N':
    case 'p':
      return nextStep(replay, step, -1, isFinding) ?? step;
    case 'c':
      return nextStep(replay, step, 1, isCall) ?? step;
    case 'C':
      return nextStep(replay, step, -1, isCall) ?? step;
    default:
      return undefined;
  }
}

/** Keys typed into a field are the field's, never the replay's. */
function typing(target: EventTarget): boolean {
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    (target instanceof HTMLElement && target.isContentEditable)
  );
}

/** One dialogue: its scenario, the steps, the conversation, and what stood at the step. */
export function DialogueView() {
  const store = useAppStoreApi();
  const selectors = replaySelectors(store);
  const replay = useAppStore(selectors.selectReplay);
  const step = useAppStore(selectors.selectStep);
  const comparing = useAppStore((s) => s.replayCompare !== null);
  const setStep = useAppStore((s) => s.setReplayStep);
  const root = useRef<HTMLDivElement>(null);

  // Selecting a policy on the graph while replaying jumps to the first step that concerns it.
  useEffect(
    () =>
      store.subscribe((state, previous) => {
        const picked = state.selectedPolicy?.id;
        if (picked === undefined || picked === previous.selectedPolicy?.id) return;
        const current = selectors.selectReplay(state);
        const to = current ? firstStepFor(current, picked) : undefined;
        if (to !== undefined) state.setReplayStep(to);
      }),
    [store, selectors],
  );

  if (!replay) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (typing(event.target) || event.altKey || event.ctrlKey || event.metaKey) return;
    const to = keyStep(replay, step, event);
    if (to === undefined) return;
    event.preventDefault();
    setStep(to);
  };

  return (
    <div
      ref={root}
      className="replay-dialogue"
      tabIndex={0}
      aria-label={`Replay of ${replay.dialogue}: ← and → step, Home and End jump, n the next finding, c the next tool call`}
      onKeyDown={onKeyDown}
      data-testid="replay-dialogue"
    >
      <DialogueActions replay={replay} step={step} />
      <ScenarioCard replay={replay} />
      <Stepper replay={replay} step={step} />
      {comparing ? (
        <ComparePane replay={replay} />
      ) : (
        <div className="replay-split">
          <Conversation replay={replay} step={step} />
          <Inspector />
        </div>
      )}
    </div>
  );
}
