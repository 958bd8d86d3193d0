import { useEffect } from 'react';
import { selectProjectName } from '../state/selectors.ts';
import { useAppStore } from '../state/useAppStore.ts';
import { DismissProvider } from '../ui/useDismissible.tsx';
import { ModelsDialog } from '../features/models/ModelsDialog.tsx';
import { ProjectsDialog } from '../features/projects/ProjectsDialog.tsx';
import { ImportReportDialog } from '../features/share/ImportReportDialog.tsx';
import { Header } from './Header.tsx';
import { NoticeBar } from './NoticeBar.tsx';
import { ShortcutsDialog } from './ShortcutsDialog.tsx';
import { StatusBar } from './StatusBar.tsx';
import { useGlobalShortcuts } from './useGlobalShortcuts.ts';
import { useFileDrop } from './useFileDrop.ts';
import { useReplayAddress } from './useReplayAddress.ts';
import { useShareArrival } from './useShareArrival.ts';
import { useThemeSync } from './useThemeSync.ts';
import { Workbench } from './workbench/Workbench.tsx';
import { WorkbenchProvider } from './workbench/WorkbenchProvider.tsx';

/** The shell: header, the five-pane workbench, status bar. It lays out; features do the work. */
export function App() {
  return (
    <DismissProvider>
      <WorkbenchProvider>
        <Shell />
      </WorkbenchProvider>
    </DismissProvider>
  );
}

function Shell() {
  useThemeSync();
  useGlobalShortcuts();
  useReplayAddress();
  useFileDrop();
  useShareArrival();
  const projectName = useAppStore(selectProjectName);
  const layoutGeneration = useAppStore((s) => s.layoutGeneration);

  useEffect(() => {
    document.title = `${projectName} · PolicyLab`;
  }, [projectName]);

  return (
    <div className="app">
      <Header />
      <NoticeBar />
      <main className="app-main">
        <Workbench key={layoutGeneration} />
      </main>
      <StatusBar />
      <ShortcutsDialog />
      <ProjectsDialog />
      <ModelsDialog />
      <ImportReportDialog />
    </div>
  );
}
