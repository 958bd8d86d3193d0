import { EmptyState } from '../../ui/EmptyState.tsx';

/** The Simulate pane: synthetic conversations between a simulated user and the agent. */
export function SimulatePane() {
  return (
    <EmptyState icon="simulate" title="No runs yet">
      <p>
        Sample policy combinations from the graph, generate a scenario for each, and let a simulated
        user talk to the agent under test. Guard rules, checks and a judge score every dialogue.
      </p>
      <p className="empty-state-note">Running simulations is not available yet.</p>
    </EmptyState>
  );
}
