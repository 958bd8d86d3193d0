import { EmptyState } from '../../ui/EmptyState.tsx';

/** What the canvas shows while there is no policy to draw (or the project is still being read). */
export function GraphEmpty({ analysed }: { analysed: boolean }) {
  return (
    <div className="graph-overlay">
      <EmptyState icon="graph" title={analysed ? 'No policies to draw' : 'Reading the project…'}>
        <p>
          Each policy in <code>policies.yaml</code> becomes a node, coloured by category and sized
          by challenge; relations between policies become weighted edges. Add one with the + button
          above.
        </p>
      </EmptyState>
    </div>
  );
}
