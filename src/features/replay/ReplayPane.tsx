import { EmptyState } from '../../ui/EmptyState.tsx';

/** The Replay pane: a dialogue stepped through turn by turn. */
export function ReplayPane() {
  return (
    <EmptyState icon="replay" title="Nothing to replay">
      <p>
        Step through any dialogue turn by turn: messages, tool calls and their results, the guard
        rule that fired, database changes, and the policies in play lit up on the graph.
      </p>
      <p className="empty-state-note">Dialogues appear here once a simulation has run.</p>
    </EmptyState>
  );
}
