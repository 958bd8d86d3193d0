import type { Transcript, TranscriptCall } from '../../core/index.ts';
import { ENDING_LABELS, describeChange } from '../../core/index.ts';
import type { Seat } from '../../state/slices/playSlice.ts';

/** Endings whose label says it all; the others add their detail (which rule, which error). */
const PLAIN_ENDINGS: ReadonlySet<string> = new Set(['user-done', 'cancelled']);

/** The game's dialogue: messages, each agent tool call with the guard's decision and result. */
export function PlayDialogue({ transcript, seat }: { transcript: Transcript; seat: Seat }) {
  const name = (speaker: 'user' | 'agent') =>
    speaker === seat ? 'You' : speaker === 'user' ? 'Customer' : 'Agent';
  const shown = new Set(transcript.messages.flatMap((m) => m.calls.map((c) => c.call)));
  // Calls of a turn whose words never came (the dialogue ended between them) still show.
  const loose = transcript.calls.filter((c) => !shown.has(c.call));
  return (
    <ol className="play-dialogue" aria-label="Dialogue">
      {transcript.messages.map((message) => (
        <li key={message.turn} className="play-message" data-speaker={message.speaker}>
          <span className="play-speaker">
            {name(message.speaker)} <span className="simulate-faint">turn {message.turn}</span>
          </span>
          {message.text !== '' && <p className="play-text">{message.text}</p>}
          {message.calls.map((call) => (
            <CallView key={call.call} call={call} />
          ))}
        </li>
      ))}
      {loose.map((call) => (
        <li key={call.call} className="play-message" data-speaker="agent">
          <CallView call={call} />
        </li>
      ))}
      {transcript.ending && (
        <li className="play-ending" role="status">
          {ENDING_LABELS[transcript.ending.reason].sentence}
          {!PLAIN_ENDINGS.has(transcript.ending.reason) && ` ${transcript.ending.detail}`}
        </li>
      )}
    </ol>
  );
}

function CallView({ call }: { call: TranscriptCall }) {
  const { guard, result } = call;
  return (
    <div className="play-call" data-allowed={guard?.allowed ?? true}>
      <code>
        {call.tool}({JSON.stringify(call.args)})
      </code>
      {guard && (
        <span className="play-guard" data-allowed={guard.allowed}>
          {guard.allowed
            ? `allowed${guard.rule ? ` by ${guard.rule}` : ''}`
            : `refused${guard.rule ? ` by ${guard.rule}` : ''}${guard.policy ? ` (${guard.policy})` : ''}: ${guard.reason}`}
          {!guard.allowed && guard.fallback && ` → ${FALLBACKS[guard.fallback]}`}
        </span>
      )}
      {result && (
        <details className="play-result">
          <summary>
            {guard?.allowed === false
              ? 'what the agent was told'
              : result.ok
                ? 'returned'
                : 'failed'}
            {result.changes.length > 0 &&
              ` · ${result.changes.length} change${result.changes.length === 1 ? '' : 's'}`}
          </summary>
          <pre>{result.text}</pre>
          {result.changes.length > 0 && (
            <ul>
              {result.changes.map((change, i) => (
                <li key={`${change.table}-${change.key}-${String(i)}`}>{describeChange(change)}</li>
              ))}
            </ul>
          )}
        </details>
      )}
    </div>
  );
}

const FALLBACKS = {
  message: 'the agent was told',
  end: 'the conversation ends',
  ask_user: 'the customer is asked',
} as const;
