import type { RunReport } from '../../../core/index.ts';

/**
 * "user: gpt-x · judge: y": every pass rate depends on the simulated user's model (and the judge's
 * opinions on the judge's), so it is named beside each one.
 */
export function ModelsCaption({ report }: { report: RunReport }) {
  const models = report.run?.models;
  const user = models?.user ?? 'not recorded';
  return (
    <span className="report-models" data-testid="report-models">
      user: {user}
      {models?.judge !== undefined && ` · judge: ${models.judge}`}
    </span>
  );
}
