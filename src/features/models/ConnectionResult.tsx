import type { ConnectionState } from '../../state/slices/modelsSlice.ts';

function ms(value: number): string {
  return value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`;
}

/** The outcome of a connection test, as one status line a person can act on. */
export function ConnectionResult({ state }: { state: ConnectionState | undefined }) {
  if (!state) return null;
  if (state.status === 'running') {
    return (
      <p className="connection-result" role="status" data-status="running">
        Testing {state.model}: asking for a tool call…
      </p>
    );
  }
  if (state.status === 'passed') {
    return (
      <div className="connection-result" role="status" data-status="passed">
        <strong>Connection works.</strong> Tool call in {ms(state.toolCallMs)}, round trip in{' '}
        {ms(state.totalMs)} ({state.model}).
        <div className="models-faint">
          Called <code>{state.toolCall}</code>
          {state.answer.trim() !== '' && <> and answered “{clip(state.answer)}”</>}
        </div>
      </div>
    );
  }
  return (
    <div className="connection-result" role="alert" data-status="failed" data-kind={state.kind}>
      <strong>{state.step === 'tool-call' ? 'The tool call failed.' : 'The answer failed.'}</strong>{' '}
      {state.message}
    </div>
  );
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}
