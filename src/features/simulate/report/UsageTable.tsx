import type { ModelRole, RunReport } from '../../../core/index.ts';
import { MODEL_ROLES } from '../../../core/index.ts';

/** Tokens, money and time per role, with the model that played it. */
export function UsageTable({ report }: { report: RunReport }) {
  const roles = MODEL_ROLES.filter(
    (role: ModelRole) =>
      report.usage.byRole[role] !== undefined || report.msByRole[role] !== undefined,
  );
  if (roles.length === 0) return null;
  return (
    <table className="run-table" aria-label="Spending per role">
      <caption>Tokens, money and time per role</caption>
      <thead>
        <tr>
          <th scope="col">Role</th>
          <th scope="col">Model</th>
          <th scope="col">Calls</th>
          <th scope="col">Tokens in / out</th>
          <th scope="col">Cost</th>
          <th scope="col">Time</th>
        </tr>
      </thead>
      <tbody>
        {roles.map((role) => {
          const usage = report.usage.byRole[role];
          const ms = report.msByRole[role];
          return (
            <tr key={role}>
              <th scope="row">{role}</th>
              <td>
                <code>{report.run?.models[role] ?? '—'}</code>
              </td>
              <td>
                {usage?.calls ?? 0}
                {usage !== undefined && usage.failed > 0 && ` (${usage.failed} failed)`}
              </td>
              <td title={usage && usage.estimated > 0 ? 'Estimated from characters' : undefined}>
                {usage
                  ? `${usage.estimated > 0 ? '≈' : ''}${usage.inputTokens} / ${usage.outputTokens}`
                  : '—'}
              </td>
              <td>
                {usage ? (usage.cost === null ? 'unpriced' : `$${usage.cost.toFixed(4)}`) : '—'}
              </td>
              <td>{ms === undefined ? '—' : `${(ms / 1000).toFixed(1)} s`}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
