import { useMemo } from 'react';
import type { AssistSpent } from '../../core/index.ts';
import { ASSIST_ACTIONS, ASSIST_ACTION_NAMES, assistTotals } from '../../core/index.ts';
import { useAppStore } from '../../state/useAppStore.ts';
import { dollarWords } from '../assist/AssistCost.tsx';

const count = (n: number) => n.toLocaleString('en-US');
/** "2 calls used a model with no price: their tokens are counted, their dollars are not." */
function unpricedWords(n: number): string {
  const their = n === 1 ? 'its' : 'their';
  return `${count(n)} call${n === 1 ? '' : 's'} used a model with no price: ${their} tokens are counted, ${their} dollars are not.`;
}

/** The newest calls listed one by one. */
const LATEST = 20;

function Figures({ spent }: { spent: AssistSpent }) {
  return (
    <>
      <td>{count(spent.calls)}</td>
      <td>{count(spent.failed)}</td>
      <td>{count(spent.inputTokens)}</td>
      <td>{count(spent.outputTokens)}</td>
      <td>{dollarWords(spent.cost ?? 0)}</td>
    </>
  );
}

/**
 * What this project's Assist actions (extract, relate, guard drafts, attacks) have spent, from
 * its Assist log: per action, in all, and the latest calls, failed ones included. A run's own
 * spending is in its report.
 */
export function SpendingSection() {
  const log = useAppStore((s) => s.assistLog);
  const problem = useAppStore((s) => s.assistLogProblem);
  const totals = useMemo(() => assistTotals(log), [log]);
  const latest = log.slice(-LATEST).reverse();

  return (
    <>
      <p className="models-intro">
        Every model call an Assist action made for this project (extracting policies, rating
        relations, drafting guard rules, writing adversarial scenarios), failed calls included. What
        runs spend is in each run’s report.
      </p>
      {problem !== null && (
        <p className="models-error" role="alert">
          {problem}
        </p>
      )}
      {log.length === 0 ? (
        <p className="models-faint">No Assist action has called a model in this project yet.</p>
      ) : (
        <>
          <table className="models-table models-spending" aria-label="Assist spending by action">
            <thead>
              <tr>
                <th scope="col">Action</th>
                <th scope="col">Calls</th>
                <th scope="col">Failed</th>
                <th scope="col">Tokens in</th>
                <th scope="col">Tokens out</th>
                <th scope="col">Dollars</th>
              </tr>
            </thead>
            <tbody>
              {ASSIST_ACTIONS.filter((a) => totals.byAction[a].calls > 0).map((action) => (
                <tr key={action}>
                  <th scope="row">{ASSIST_ACTION_NAMES[action]}</th>
                  <Figures spent={totals.byAction[action]} />
                </tr>
              ))}
              <tr className="models-total">
                <th scope="row">All</th>
                <Figures spent={totals.all} />
              </tr>
            </tbody>
          </table>
          {totals.unpriced > 0 && (
            <p className="models-faint">
              {unpricedWords(totals.unpriced)} Add the model’s price under Prices.
            </p>
          )}
          <table className="models-table models-spending" aria-label="Latest Assist calls">
            <caption className="models-caption">
              The latest {Math.min(LATEST, log.length)} of {count(log.length)} calls
            </caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Action</th>
                <th scope="col">Model</th>
                <th scope="col" className="models-nowrap">
                  Tokens in / out
                </th>
                <th scope="col">Dollars</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {latest.map((e, i) => (
                <tr key={log.length - i}>
                  <td className="models-nowrap">
                    <time dateTime={e.when} title={e.when}>
                      {e.when.slice(5, 19).replace('T', ' ')}
                    </time>
                  </td>
                  <td>{ASSIST_ACTION_NAMES[e.action]}</td>
                  <td className="models-nowrap">
                    <code>{e.model}</code>
                  </td>
                  <td>
                    {count(e.inputTokens)} / {count(e.outputTokens)}
                  </td>
                  <td>{e.cost === null ? 'no price' : dollarWords(e.cost)}</td>
                  <td>
                    {e.failed === undefined ? 'answered' : `failed: ${e.failed.replace(/-/g, ' ')}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </>
  );
}
