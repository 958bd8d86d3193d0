import type { AssistCost, AssistEstimate, AssistSpent } from '../../core/index.ts';

// What every Assist action shows about money and time, in the same words everywhere: the
// estimate before it runs, its progress with Stop while it runs, what it spent after.

const count = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

/** Dollars to four places below a dollar, to cents above. */
export function dollarWords(cost: number): string {
  return `$${cost.toFixed(cost < 1 ? 4 : 2)}`;
}

/** "3 calls · 1,200 tokens in · 900 out · $0.0012" (free, or unknown when the model has no price). */
export function costWords(cost: AssistCost, free = false): string {
  const money = free
    ? 'free (runs in this browser)'
    : cost.cost === null
      ? 'cost unknown (the model has no price; add one under Models)'
      : dollarWords(cost.cost);
  return `${plural(cost.calls, 'call')} · ${count(cost.inputTokens)} tokens in · ${count(cost.outputTokens)} out · ${money}`;
}

/** "To rate 12 pairs with gpt-4.1-mini: about 2 calls (up to 4 with repairs) · … · $0.0010." */
export function AssistEstimateLine({
  doing,
  estimate,
}: {
  /** What the action will do, as the start of a sentence ("To rate 12 pairs"). */
  doing: string;
  estimate: AssistEstimate;
}) {
  const repairs =
    estimate.maxCalls > estimate.calls ? ` (up to ${count(estimate.maxCalls)} with repairs)` : '';
  const [calls, ...rest] = costWords(estimate, estimate.free).split(' · ');
  return (
    <p aria-label="Estimate" className="assist-cost">
      {doing} with {estimate.model}: about {calls}
      {repairs} · {rest.join(' · ')}.
    </p>
  );
}

/** The progress of a running action, with the Stop that ends it between (or during) calls. */
export function AssistProgress({
  done,
  total,
  unit,
  onStop,
}: {
  done: number;
  total: number;
  /** What is counted, singular ("call", "section"). */
  unit: string;
  onStop: () => void;
}) {
  return (
    <p role="status" className="assist-progress">
      <progress max={Math.max(total, 1)} value={done} /> {count(done)} of {plural(total, unit)}{' '}
      <button type="button" className="button" onClick={onStop}>
        Stop
      </button>
    </p>
  );
}

/** "Stopped. Spent 3 calls · … · $0.0012 (1 failed)." */
export function AssistSpentLine({
  spent,
  stopped = false,
  free = false,
}: {
  spent: AssistSpent;
  stopped?: boolean;
  free?: boolean;
}) {
  return (
    <p className="assist-cost" aria-label="Spent">
      {stopped ? 'Stopped. ' : ''}Spent {costWords(spent, free)}
      {spent.failed > 0 ? ` (${plural(spent.failed, 'failed call')})` : ''}.
    </p>
  );
}
