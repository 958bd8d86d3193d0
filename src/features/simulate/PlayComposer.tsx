import { useState } from 'react';
import type { SeatTurn, ToolSpec } from '../../core/index.ts';
import { emptyArguments } from '../../core/index.ts';
import type { Seat } from '../../state/slices/playSlice.ts';
import { useAppStore } from '../../state/useAppStore.ts';

interface Draft {
  readonly name: string;
  readonly args: string;
}

/**
 * Where the person writes their turn: a message, and in the agent's seat the tool calls to make
 * (a tool and its JSON arguments). A refused answer keeps everything written.
 */
export function PlayComposer({ seat, turn }: { seat: Seat; turn: SeatTurn }) {
  const answerPlay = useAppStore((s) => s.answerPlay);
  const finishPlay = useAppStore((s) => s.finishPlay);
  const problem = useAppStore((s) => s.play?.problem ?? null);
  const [text, setText] = useState('');
  const [calls, setCalls] = useState<readonly Draft[]>([]);
  const tools = turn.request.tools ?? [];

  const send = () => {
    const sent = answerPlay({
      text,
      toolCalls: calls.map((c) => ({ name: c.name, arguments: c.args })),
    });
    if (sent) {
      setText('');
      setCalls([]);
    }
  };

  return (
    <form
      className="play-composer"
      aria-label="Your turn"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <label className="play-field">
        <span>{seat === 'user' ? 'Your message to the agent' : 'Your answer to the customer'}</span>
        <textarea
          rows={3}
          value={text}
          autoFocus
          onChange={(event) => {
            setText(event.target.value);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              send();
            }
          }}
        />
      </label>
      {seat === 'agent' && (
        <ToolCalls
          tools={tools}
          calls={calls}
          onChange={(next) => {
            setCalls(next);
          }}
        />
      )}
      {problem && (
        <p className="simulate-message" role="alert">
          {problem}
        </p>
      )}
      <div className="play-actions">
        <button type="submit" className="button">
          {calls.length > 0
            ? `Send with ${calls.length} tool call${calls.length === 1 ? '' : 's'}`
            : 'Send'}
        </button>
        {seat === 'user' && (
          <button
            type="button"
            className="button button-quiet"
            title="Sends what you wrote (if anything) as your last message"
            onClick={() => {
              if (finishPlay(text)) setText('');
            }}
          >
            End the conversation
          </button>
        )}
        <span className="simulate-faint">Enter sends; Shift+Enter starts a new line.</span>
      </div>
    </form>
  );
}

/** The tool calls of the agent's turn, each a tool and its arguments as JSON. */
function ToolCalls({
  tools,
  calls,
  onChange,
}: {
  tools: readonly ToolSpec[];
  calls: readonly Draft[];
  onChange: (calls: readonly Draft[]) => void;
}) {
  const [first] = tools;
  if (!first) return null;
  const set = (index: number, draft: Draft) => {
    onChange(calls.map((c, i) => (i === index ? draft : c)));
  };
  return (
    <fieldset className="play-calls">
      <legend>Tool calls</legend>
      {calls.map((call, index) => (
        <div key={index} className="play-call-draft">
          <select
            aria-label={`Tool of call ${index + 1}`}
            value={call.name}
            onChange={(event) => {
              const tool = tools.find((t) => t.name === event.target.value);
              set(index, { name: event.target.value, args: tool ? skeleton(tool) : '{}' });
            }}
          >
            {tools.map((t) => (
              <option key={t.name} value={t.name}>
                {t.name}
              </option>
            ))}
          </select>
          <textarea
            aria-label={`Arguments of call ${index + 1} (JSON)`}
            rows={2}
            spellCheck={false}
            value={call.args}
            onChange={(event) => {
              set(index, { ...call, args: event.target.value });
            }}
          />
          <button
            type="button"
            className="button button-quiet"
            aria-label={`Remove call ${index + 1}`}
            onClick={() => {
              onChange(calls.filter((_, i) => i !== index));
            }}
          >
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        className="button button-quiet"
        onClick={() => {
          onChange([...calls, { name: first.name, args: skeleton(first) }]);
        }}
      >
        Add a tool call
      </button>
    </fieldset>
  );
}

/** Arguments to start a call from, on one line. */
function skeleton(tool: ToolSpec): string {
  return JSON.stringify(emptyArguments(tool.parameters));
}
