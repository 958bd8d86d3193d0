import { Suspense, useState } from 'react';
import { useAppStore } from '../../state/useAppStore.ts';
import { lazyWithRetry } from '../../ui/lazyWithRetry.tsx';
import { useRevealed } from '../useRevealed.ts';
import { EditorToolbar } from './EditorToolbar.tsx';
import { FileList } from './FileList.tsx';
import { ProblemsPanel } from './ProblemsPanel.tsx';
import './author.css';

// The editor, the playground and extraction load when first used: they bring Monaco and the
// project parser, which the first paint does not need.
const loadEditor = () => import('./MonacoEditor.tsx').then((m) => m.MonacoEditor);
const MonacoEditor = lazyWithRetry(loadEditor);
const RulePlayground = lazyWithRetry(() =>
  import('./RulePlayground.tsx').then((m) => m.RulePlayground),
);
const ExtractDialog = lazyWithRetry(() =>
  import('./ExtractDialog.tsx').then((m) => m.ExtractDialog),
);
const GuardDraftDialog = lazyWithRetry(() =>
  import('./GuardDraftDialog.tsx').then((m) => m.GuardDraftDialog),
);

/**
 * Starts downloading the editor at once, for a page that will show the Author pane: otherwise the
 * download waits until the project has opened and the pane renders. The pane's own load then finds
 * the module on its way; a download that fails here is tried again, and reported, by the pane.
 */
export function preloadEditor() {
  loadEditor().catch(() => undefined);
}

/** The Author pane: the project's files, the editor, problems, and the rule playground. */
export function AuthorPane() {
  const revealed = useRevealed('author');
  const ready = useAppStore((s) => s.ready);
  const activeFile = useAppStore((s) => s.activeFile);
  const [playgroundOpen, setPlaygroundOpen] = useState(false);
  const [extractOpen, setExtractOpen] = useState(false);
  const [guardOpen, setGuardOpen] = useState(false);
  const trying = useAppStore((s) => s.playgroundTrial !== null);

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
              setExtractOpen(true);
            }}
            onDraftGuard={() => {
              setGuardOpen(true);
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
        {activeFile === 'rules.yaml' && (playgroundOpen || trying) && (
          <Suspense fallback={<p className="loading">Loading the playground…</p>}>
            <RulePlayground />
          </Suspense>
        )}
        {extractOpen && (
          <Suspense fallback={null}>
            <ExtractDialog
              onClose={() => {
                setExtractOpen(false);
              }}
            />
          </Suspense>
        )}
        {guardOpen && (
          <Suspense fallback={null}>
            <GuardDraftDialog
              onClose={() => {
                setGuardOpen(false);
              }}
            />
          </Suspense>
        )}
      </div>
    </div>
  );
}
