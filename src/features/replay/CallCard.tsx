import type { RowChange, TranscriptCall } from '../../core/index.ts';

/** A value as a person reads it in a diff: JSON, so text and numbers are told apart. */
function shown(value: unknown): string {
  if (value === undefined) return '—';
  try {
    return JSON.stringify(value);
  } catch {
    return '(cannot be shown)';
  }
}

/** The arguments as indented JSON. */
function argsText(args: TranscriptCall['args']): string {
  try {
    return JSON.stringify(args, null, 2);
  } catch {
    return '{…}';
  }
}

/** A result as the agent was told it: indented when it is JSON, as written otherwise. */
function resultText(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text) as unknown, null, 2);
  } catch {
    return text;
  }
}

/**
 * One tool call: its arguments, the guard's decision (allowed, or refused by which rule with
 * which fallback), what the tool gave back, and each row it changed, field by field.
 */
export function CallCard({ call }: { call: TranscriptCall }) {
  const guard = call.guard;
  const refused = guard?.allowed === false;
  return (
    <div className="replay-call" data-refused={refused ? 'true' : undefined}>
      <div className="replay-call-head">
        <span className="replay-call-tool">{call.tool}</span>
        {guard ? (
          refused ? (
            <span className="replay-guard is-refused">
              Refused by {guard.rule ?? 'the guard'}
              {guard.policy !== undefined && ` (${guard.policy})`}
              {guard.fallback && ` · fallback: ${FALLBACKS[guard.fallback]}`}
            </span>
          ) : (
            <span className="replay-guard is-allowed">
              Allowed{guard.rule !== undefined && ` by ${guard.rule}`}
            </span>
          )
        ) : (
          <span className="replay-faint">no guard decision logged</span>
        )}
      </div>
      {guard && <p className="replay-guard-reason">{guard.reason}</p>}
      <details className="replay-json" open>
        <summary>Arguments</summary>
        <pre>{argsText(call.args)}</pre>
      </details>
      {call.result && (
        <details className="replay-json" open={!call.result.ok}>
          <summary>
            {call.result.ok ? 'Result' : refused ? 'What the agent was told' : 'Error'}
          </summary>
          <pre>{resultText(call.result.text)}</pre>
        </details>
      )}
      {call.result && call.result.changes.length > 0 && (
        <div className="replay-changes" aria-label="Database changes">
          {call.result.changes.map((c, i) => (
            <ChangeDiff key={`${c.table}-${c.key}-${String(i)}`} change={c} />
          ))}
        </div>
      )}
    </div>
  );
}

const FALLBACKS = {
  message: 'a message back to the agent',
  end: 'the dialogue ends',
  ask_user: 'the customer is asked',
} as const;

/** One row's change: an update field by field (before → after), an insert or delete whole. */
export function ChangeDiff({ change }: { change: RowChange }) {
  const { before, after } = change;
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const changed =
    change.kind === 'update'
      ? fields.filter((f) => shown(before?.[f]) !== shown(after?.[f]))
      : fields;
  return (
    <div className="replay-change" data-kind={change.kind}>
      <span className="replay-change-head">
        {change.kind === 'insert'
          ? 'New row'
          : change.kind === 'delete'
            ? 'Deleted row'
            : 'Changed'}{' '}
        <code>
          {change.table} {change.key}
        </code>
      </span>
      <table className="replay-diff">
        <tbody>
          {changed.map((f) => (
            <tr key={f}>
              <th scope="row">{f}</th>
              {change.kind !== 'insert' && <td className="replay-before">{shown(before?.[f])}</td>}
              {change.kind === 'update' && <td aria-hidden="true">→</td>}
              {change.kind !== 'delete' && <td className="replay-after">{shown(after?.[f])}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
