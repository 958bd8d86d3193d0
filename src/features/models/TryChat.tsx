import { useRef, useState } from 'react';
import type { ChatToolCall } from '../../core/index.ts';
import type { TrialResult } from '../../state/slices/modelsSlice.ts';
import { useAppStore } from '../../state/useAppStore.ts';

/** Sends one prompt to an engine and shows the answer as it streams, tool calls included. */
export function TryChat({ engine, model }: { engine: string; model: string }) {
  const tryEngine = useAppStore((s) => s.tryEngine);
  const [prompt, setPrompt] = useState('What time is it in Paris?');
  const [withTool, setWithTool] = useState(true);
  const [text, setText] = useState('');
  const [calls, setCalls] = useState<readonly ChatToolCall[]>([]);
  const [result, setResult] = useState<TrialResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const stop = useRef<AbortController | null>(null);

  const send = async () => {
    const controller = new AbortController();
    stop.current = controller;
    setRunning(true);
    setText('');
    setCalls([]);
    setResult(null);
    setError(null);
    try {
      const answer = await tryEngine(
        engine,
        model,
        { text: prompt, withTool, signal: controller.signal },
        (delta) => {
          if (delta.kind === 'text') setText((current) => current + delta.text);
        },
      );
      setText(answer.text);
      setCalls(answer.toolCalls);
      setResult(answer);
    } catch (thrown) {
      setError(thrown instanceof Error ? thrown.message : String(thrown));
    } finally {
      setRunning(false);
      stop.current = null;
    }
  };

  return (
    <form
      className="try-chat"
      aria-label="Try a prompt"
      onSubmit={(event) => {
        event.preventDefault();
        if (!running && prompt.trim() !== '') void send();
      }}
    >
      <div className="models-row">
        <input
          aria-label="Prompt"
          value={prompt}
          onChange={(event) => {
            setPrompt(event.target.value);
          }}
        />
        {running ? (
          <button
            type="button"
            className="button button-quiet"
            onClick={() => stop.current?.abort()}
          >
            Stop
          </button>
        ) : (
          <button type="submit" className="button button-quiet">
            Send
          </button>
        )}
      </div>
      <label className="models-check">
        <input
          type="checkbox"
          checked={withTool}
          onChange={(event) => {
            setWithTool(event.target.checked);
          }}
        />
        Offer the tool <code>get_local_time(city)</code>
      </label>
      {(text !== '' || calls.length > 0 || running) && (
        <div className="try-output" aria-live="polite" data-testid="try-output">
          {text}
          {calls.map((call) => (
            <div key={call.id} className="try-tool-call">
              Tool call: <code>{`${call.name}(${call.arguments})`}</code>
            </div>
          ))}
        </div>
      )}
      {result && (
        <p className="models-faint" data-testid="try-figures">
          {result.inputTokens} tokens in, {result.outputTokens} out, in {Math.round(result.totalMs)}{' '}
          ms
          {result.firstTokenMs !== undefined &&
            ` · first token after ${Math.round(result.firstTokenMs)} ms`}
          {result.totalMs > 0 &&
            ` · ${((result.outputTokens * 1000) / result.totalMs).toFixed(1)} tokens/s`}
          {` · stopped: ${result.finishReason}`}
          {result.cost === null
            ? ` · no price for ${model}`
            : ` · $${result.cost === 0 ? '0' : result.cost.toFixed(5)}`}
        </p>
      )}
      {error && (
        <p className="models-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
