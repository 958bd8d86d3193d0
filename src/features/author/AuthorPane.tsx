import { Suspense, useState } from 'react';
import type { CandidatePolicy } from '../../core/index.ts';
import { extractPolicies, newCandidates } from '../../core/index.ts';
import { lazyWithRetry } from '../../ui/lazyWithRetry.tsx';
import { useRevealed } from '../useRevealed.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import { EditorToolbar } from './EditorToolbar.tsx';
import { ExtractDialog } from './ExtractDialog.tsx';
import { FileList } from './FileList.tsx';
import { ProblemsPanel } from './ProblemsPanel.tsx';
import { RulePlayground } from './RulePlayground.tsx';
import './author.css';

const MonacoEditor = lazyWithRetry(() => import('./MonacoEditor.tsx').then((m) => m.MonacoEditor));

/** The Author pane: the project's files and the editor for the one that is open. */
export function AuthorPane() {
  const revealed = useRevealed('author');
  const ready = useAppStore((s) => s.ready);
  const activeFile = useAppStore((s) => s.activeFile);
  const store = useAppStoreApi();
  const [playgroundOpen, setPlaygroundOpen] = useState(false);
  const [candidates, setCandidates] = useState<readonly CandidatePolicy[] | null>(null);
  return (
    <div className="author-container">
      <div className="author">
        <FileList />
        <div className="author-main">
          <EditorToolbar
            playgroundOpen={playgroundOpen}
            onTogglePlayground={() => {
              setPlaygroundOpen(!playgroundOpen);
            }}
            onExtract={() => {
              const { project, analysis } = store.getState();
              const tools = analysis?.model.tools.map((t) => t.name) ?? [];
              const existing = analysis?.model.policies ?? [];
              setCandidates(
                newCandidates(extractPolicies(project.files['agent.md'], tools), existing),
              );
            }}
          />
          <div className="author-editor" id="author-editor" role="tabpanel" aria-label="Editor">
            {revealed && ready && (
              <Suspense fallback={<p className="loading">Loading the editor…</p>}>
                <MonacoEditor />
              </Suspense>
            )}
            {!ready && <p className="loading">Opening the project…</p>}
          </div>
          <ProblemsPanel />
        </div>
        {activeFile === 'rules.yaml' && playgroundOpen && <RulePlayground />}
        <ExtractDialog
          candidates={candidates}
          onClose={() => {
            setCandidates(null);
          }}
        />
      </div>
    </div>
  );
}
