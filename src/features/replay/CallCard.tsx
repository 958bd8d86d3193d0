import type { GuardWhatIf, RowChange, ToolWhatIf, TranscriptCall } from '../../core/index.ts';

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
 * Who made a call that is not the agent's (dual control): the customer on their own device, or
 * the scenario's setup before the conversation. Guard rules hold only the agent's calls.
 */
const CALL_MAKERS: Readonly<Record<NonNullable<TranscriptCall['by']>, string>> = {
  user: 'The customer’s own tool',
  setup: 'Set up before the conversation',
};

/** What today's guard rules would decide about a call, or why that cannot be said. */
export interface CallWhatIf {
  readonly decision?: GuardWhatIf;
  readonly problem?: string;
  /** Files of today's project the what-if reads that have errors ("rules.yaml"). */
  readonly brokenFiles: string | null;
}

/**
 * One tool call: its arguments, the guard's decision (allowed, or refused by which rule with
 * which fallback), what today's rules would decide as a what-if, what the tool gave back, and
 * each row it changed, field by field.
 */
export function CallCard({
  call,
  whatIf,
}: {
  call: TranscriptCall;
  whatIf?: CallWhatIf | undefined;
}) {
  const guard = call.guard;
  const refused = guard?.allowed === false;
  const refusal = call.result?.refusedBy;
  return (
    <div
      className="replay-call"
      data-refused={refused ? 'true' : undefined}
      data-by={call.by}
      data-testid={call.by === undefined ? undefined : `${call.by}-call`}
    >
      <div className="replay-call-head">
        {call.by !== undefined && <span className="replay-call-by">{CALL_MAKERS[call.by]}</span>}
        <span className="replay-call-tool">{call.tool}</span>
        {call.by !== undefined ? null : guard ? (
          refused ? (
            <span className="replay-guard is-refused">
              Refused by {guard.rule ?? 'the guard'}
              {guard.policy !== undefined && ` (${guard.policy})`}
              {guard.fallback && ` · fallback: ${FALLBACKS[guard.fallback]}`}
              {guard.noted && ' · noted, not failing'}
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
      {refusal && (
        <p className="replay-guard-reason" data-testid="precondition-refusal">
          <span className="replay-guard is-refused">
            Tried, refused by its precondition {refusal.precondition + 1} ({refusal.policy})
            {refusal.noted && ' · noted, not failing'}
          </span>
        </p>
      )}
      {guard && whatIf && <WhatIfNote logged={guard} whatIf={whatIf} />}
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

/**
 * Today's rules tried on the call as it was logged: said loudly when they would decide it the
 * other way (or today's tool's preconditions would answer it otherwise), quietly when they
 * decide the same. Always labelled a what-if: the dialogue above is
 * what happened, and nothing in it changes.
 */
function WhatIfNote({
  logged,
  whatIf,
}: {
  logged: NonNullable<TranscriptCall['guard']>;
  whatIf: CallWhatIf;
}) {
  const { decision, problem, brokenFiles } = whatIf;
  const broken = brokenFiles && (
    <span className="replay-faint">
      {' '}
      Today’s {brokenFiles} has errors: the what-if uses what parses.
    </span>
  );
  const tag = (
    <span
      className="replay-whatif-tag"
      title="Today’s guard rules tried on this call as it was logged (the database before it, the calls before it as they were decided, the run’s time); the dialogue is not changed."
    >
      What-if
    </span>
  );
  if (!decision)
    return problem === undefined ? null : (
      <p className="replay-whatif" role="note" aria-label="What-if under today’s rules">
        {tag} <span className="replay-faint">{problem}</span>
      </p>
    );
  const tool = decision.tool;
  if (!decision.differs && !tool)
    return (
      <p
        className="replay-whatif"
        data-whatif="same"
        role="note"
        aria-label="What-if under today’s rules"
      >
        {tag} <span className="replay-faint">Today’s rules decide the same.</span>
        {decision.rule !== logged.rule && <span className="replay-faint"> {decision.reason}</span>}
        {broken}
      </p>
    );
  const refused = !decision.allowed || tool?.refuses === true;
  return (
    <div
      className="replay-whatif"
      data-whatif={refused ? 'refuse' : 'allow'}
      role="note"
      aria-label="What-if under today’s rules"
    >
      {decision.differs ? (
        <>
          <p className="replay-whatif-head">
            {tag}{' '}
            <strong>
              {decision.allowed
                ? 'Today’s rules would allow this call'
                : 'Today’s rules would refuse this call'}
            </strong>
            {decision.rule !== undefined && (
              <>
                {' '}
                by <code>{decision.rule}</code>
                {decision.policy !== undefined && ` (${decision.policy})`}
              </>
            )}
            {decision.fallback && ` · fallback: ${FALLBACKS[decision.fallback]}`}
          </p>
          {/* An allowing rule's reason only repeats its name. */}
          {(!decision.allowed || decision.rule === undefined) && (
            <p className="replay-guard-reason">{decision.reason}</p>
          )}
        </>
      ) : (
        <p className="replay-whatif-head">
          {tag} <span className="replay-faint">Today’s rules decide the same.</span>
        </p>
      )}
      {tool && <ToolWhatIfLine tool={tool} />}
      <p className="replay-faint">
        A what-if: the dialogue went as logged above, and nothing in it changes.
        {broken}
      </p>
    </div>
  );
}

/** What today's tool's preconditions would answer, where it is not what the log's tool did. */
function ToolWhatIfLine({ tool }: { tool: ToolWhatIf }) {
  return tool.refuses ? (
    <p className="replay-whatif-tool" data-whatif-tool="refuse">
      <strong>Today’s tool would refuse this call:</strong> {tool.error}
    </p>
  ) : (
    <p className="replay-whatif-tool" data-whatif-tool="allow">
      <strong>Today’s tool would run this call:</strong> its preconditions hold, where the logged
      tool refused it with “{tool.logged}”
    </p>
  );
}

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
