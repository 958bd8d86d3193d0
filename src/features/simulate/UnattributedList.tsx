import type { RunReport } from '../../core/index.ts';
import { counted } from './format.ts';

/**
 * Failures no finding ties to a policy: the dialogue failed, but no policy is charged. Shown
 * apart so a reader sees them, and so an author can name the policy each expectation holds.
 */
export function UnattributedList({ report }: { report: RunReport }) {
  const { unattributed } = report;
  if (unattributed.length === 0) return null;
  const dialogues = new Set(unattributed.map((u) => u.dialogue)).size;
  return (
    <details className="run-note" data-testid="unattributed">
      <summary>
        {`${counted(unattributed.length, 'failure')} in ${counted(dialogues, 'dialogue')} ${unattributed.length === 1 ? 'names' : 'name'} no policy (unattributed)`}
      </summary>
      <ul>
        {unattributed.map((u, i) => (
          <li key={`${u.dialogue}-${u.id}-${String(i)}`}>
            {u.dialogue}
            {u.turnLabel !== undefined && `, ${u.turnLabel}`}:{' '}
            <span className="simulate-faint">
              {u.source === 'ending' ? 'the agent’s own broken output' : u.id} — {u.detail}
            </span>
          </li>
        ))}
      </ul>
    </details>
  );
}
