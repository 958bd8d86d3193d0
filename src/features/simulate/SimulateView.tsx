import { useEffect, useRef } from 'react';
import { runSelectors } from '../../state/simulationSelectors.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { AttackPanel } from './AttackPanel.tsx';
import { PromptsPanel } from './PromptsPanel.tsx';
import { RunForm } from './RunForm.tsx';
import { RunList } from './RunList.tsx';
import { RunReportView } from './RunReportView.tsx';

/** The form, the run on screen (progress and report) and the saved runs. */
export function SimulateView() {
  const refreshRuns = useAppStore((s) => s.refreshRuns);
  const projectId = useAppStore((s) => s.projectId);
  const message = useAppStore((s) => s.simulationMessage);
  const run = useAppStore((s) => s.currentRun);
  const report = useAppStore(runSelectors(useAppStoreApi()).selectRunReport);
  const top = useRef<HTMLDivElement>(null);
  const runId = run?.id;

  useEffect(() => {
    void refreshRuns();
  }, [refreshRuns, projectId]);

  // A run opened (from the list below, or just started) shows from its report's top.
  useEffect(() => {
    if (runId !== undefined) top.current?.closest('.simulate')?.scrollTo({ top: 0 });
  }, [runId]);

  const onScreen = run && report;
  return (
    <div className="simulate-view" ref={top}>
      {/* With a run on screen the form folds to one line, so the report shows without scrolling. */}
      <RunForm compact={Boolean(onScreen)} />
      {!onScreen && <PromptsPanel />}
      {message && (
        <p className="simulate-message" role="alert">
          {message}
        </p>
      )}
      {onScreen ? (
        <RunReportView run={run} report={report} />
      ) : (
        <EmptyState icon="simulate" title="No run on screen">
          <p>
            Each scenario of scenarios.yaml is played by a simulated user against the agent under
            test, with its tools on an in-browser database. Guard rules, checks and the scenario’s
            expectations judge every dialogue.
          </p>
          <p>New here? Play (the tab above) lets you hold one side of a dialogue yourself.</p>
        </EmptyState>
      )}
      {onScreen && <PromptsPanel />}
      <AttackPanel />
      <RunList />
    </div>
  );
}
