import { useEffect, useState } from 'react';
import { ReplayView } from '../features/replay/ReplayView.tsx';
import { RunReportView } from '../features/simulate/RunReportView.tsx';
import { runSelectors } from '../state/simulationSelectors.ts';
import { useAppStore, useAppStoreApi } from '../state/useAppStore.ts';
import { Icon } from '../ui/Icon.tsx';
import { TabList, tabPanelProps } from '../ui/TabList.tsx';
import { ThemeSwitch } from './ThemeSwitch.tsx';
import { useThemeSync } from './useThemeSync.ts';

const TABS = [
  { id: 'report', label: 'Report' },
  { id: 'dialogues', label: 'Dialogues' },
] as const;

type Tab = (typeof TABS)[number]['id'];

/**
 * The standalone viewer's page: the run's report and, a tab away, the Replay pane over every
 * dialogue, read-only. A dialogue opened from the report shows in the Replay tab.
 */
export function RunViewer({ title, problem }: { title: string; problem: string | null }) {
  useThemeSync();
  const store = useAppStoreApi();
  const run = useAppStore((s) => s.currentRun);
  const report = useAppStore(runSelectors(store).selectRunReport);
  const [tab, setTab] = useState<Tab>('report');

  useEffect(() => {
    document.title = `${title} · PolicyLab`;
  }, [title]);

  // The report's links open a dialogue and ask for the Replay pane: here, its tab.
  useEffect(
    () =>
      store.subscribe((state, previous) => {
        if (state.paneRequest !== previous.paneRequest && state.paneRequest?.pane === 'replay')
          setTab('dialogues');
      }),
    [store],
  );

  return (
    <div className="viewer">
      <header className="app-header viewer-header">
        <div className="brand">
          <span className="brand-mark">
            <Icon name="logo" size={18} />
          </span>
          <span className="brand-name">PolicyLab</span>
        </div>
        <span className="header-divider" aria-hidden="true" />
        <h1 className="viewer-title">{title}</h1>
        <span className="viewer-note">
          Read-only: the run as it was recorded, without its project, so policies’ categories are
          not known here.
        </span>
        <ThemeSwitch />
      </header>
      {problem !== null && (
        <p className="viewer-problem" role="alert">
          {problem}
        </p>
      )}
      {run && report && (
        <>
          <TabList
            label="Run"
            idPrefix="viewer"
            tabs={TABS}
            selected={tab}
            onSelect={setTab}
            className="viewer-tabs"
          />
          <main className="viewer-main" {...tabPanelProps('viewer', tab)}>
            {tab === 'report' ? (
              <div className="simulate viewer-report">
                <div className="simulate-view">
                  <RunReportView run={run} report={report} />
                </div>
              </div>
            ) : (
              <section className="replay" aria-label="Replay">
                <ReplayView />
              </section>
            )}
          </main>
        </>
      )}
    </div>
  );
}
