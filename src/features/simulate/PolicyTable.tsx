import { useState } from 'react';
import type { RunReport } from '../../core/index.ts';

type PolicyReport = RunReport['byPolicy'][number];
import { percent, rateWithInterval } from './format.ts';
import { ReplayLink } from './ReplayLink.tsx';
import type { SortState } from './report/chartMath.ts';
import { sortRows } from './report/chartMath.ts';
import { ModelsCaption } from './report/ModelsCaption.tsx';
import { RateBar } from './report/RateBar.tsx';
import { SortHeader } from './report/SortHeader.tsx';

type Column = 'name' | 'rate' | 'breaches';

const KEYS: Record<Column, (p: PolicyReport) => number | string> = {
  name: (p) => p.policy,
  rate: (p) => p.rate,
  breaches: (p) => p.breaches.length,
};

/**
 * Each policy: how often the agent kept it where it was in play (a bar with its interval), and
 * where it broke it. Sorted by a click on a column's header.
 */
export function PolicyTable({ report, run }: { report: RunReport; run: string }) {
  const [sort, setSort] = useState<SortState<Column> | null>(null);
  if (report.byPolicy.length === 0) return null;
  const opinions = new Map(report.judgeOpinion.byPolicy.map((o) => [o.policy, o]));
  const judged = report.judgeOpinion.dialoguesJudged > 0;
  // Broken policies first, most breaches first: that is what the reader came for.
  const byBreaches = [...report.byPolicy].sort(
    (a, b) => b.breaches.length - a.breaches.length || a.policy.localeCompare(b.policy),
  );
  const policies = sort ? sortRows(byBreaches, KEYS[sort.key], sort.direction) : byBreaches;
  return (
    <table className="run-table rate-table" aria-label="Policies">
      <caption>
        By policy · <ModelsCaption report={report} />
      </caption>
      <thead>
        <tr>
          <SortHeader label="Policy" column="name" sort={sort} onSort={setSort} />
          <SortHeader label="Kept" column="rate" sort={sort} onSort={setSort} />
          <SortHeader label="Broken at" column="breaches" sort={sort} onSort={setSort} />
          {judged && (
            <th scope="col" title="A model's opinion, never mixed with the checks">
              Judge’s opinion
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {policies.map((policy) => (
          <tr key={policy.policy} data-broken={policy.breaches.length > 0}>
            <th scope="row">
              <code>{policy.policy}</code>
              {policy.category && <div className="simulate-faint">{policy.category}</div>}
            </th>
            <td>
              {policy.passes + policy.fails === 0 ? (
                <span className="simulate-faint">
                  {policy.notChecked > 0 ? 'not checked' : 'no scenario here tests it'}
                  {policy.outOfPlay > 0 &&
                    `; broken in ${policy.outOfPlay} dialogue${policy.outOfPlay === 1 ? '' : 's'} anyway`}
                </span>
              ) : (
                <>
                  <div className="rate-cell">
                    <span className="rate-value">{percent(policy.rate)}</span>
                    <RateBar rate={policy} />
                  </div>
                  <span className="simulate-faint">
                    {policy.passes}/{policy.passes + policy.fails} · {rateWithInterval(policy)}
                  </span>
                </>
              )}
              {policy.notChecked > 0 && (
                <div className="simulate-faint" data-testid="not-checked">
                  not checked in {policy.notChecked} dialogue{policy.notChecked === 1 ? '' : 's'}{' '}
                  that had it in play (nothing deterministic looked at it there)
                </div>
              )}
              {report.run?.judgeDecides.includes(policy.policy) && (
                <div className="simulate-faint" data-testid="decided-by-model">
                  decided by a model (the judge): no check covers it
                </div>
              )}
              {policy.attempts > 0 && (
                <div className="simulate-faint" data-testid="attempts">
                  {policy.attempts} attempt{policy.attempts === 1 ? '' : 's'} refused
                  {policy.noted.length > 0 && ` (${policy.noted.length} noted, not failing)`}
                </div>
              )}
            </td>
            <td>
              {policy.breaches.length === 0 && policy.noted.length === 0 ? (
                <span className="simulate-faint">—</span>
              ) : (
                <ul className="breaches">
                  {[...policy.breaches, ...policy.noted].slice(0, 5).map((b) => (
                    <li key={`${b.dialogue}-${b.id}-${b.turn ?? ''}`}>
                      <ReplayLink run={run} dialogue={b.dialogue} turn={b.turn}>
                        {b.dialogue}
                        {b.turnLabel !== undefined && `, ${b.turnLabel}`}
                      </ReplayLink>
                      :{' '}
                      <span className="simulate-faint">
                        {b.attempt &&
                          (policy.noted.includes(b)
                            ? 'tried, refused (noted) · '
                            : 'tried, refused · ')}
                        {b.source === 'guard' ? `guard ${b.id}` : b.id} — {b.detail}
                      </span>
                    </li>
                  ))}
                  {policy.breaches.length + policy.noted.length > 5 && (
                    <li>and {policy.breaches.length + policy.noted.length - 5} more</li>
                  )}
                </ul>
              )}
            </td>
            {judged && (
              <td className="simulate-faint" data-testid="judge-opinion">
                {(() => {
                  const o = opinions.get(policy.policy);
                  return o ? `violated in ${o.violated} of ${o.judged} (opinion)` : 'not judged';
                })()}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
