import { Suspense } from 'react';
import { lazyWithRetry } from '../../ui/lazyWithRetry.tsx';
import { useRevealed } from '../useRevealed.ts';
import { FileList } from './FileList.tsx';
import './author.css';

const MonacoEditor = lazyWithRetry(() => import('./MonacoEditor.tsx').then((m) => m.MonacoEditor));

/** The Author pane: the project's files and the editor for the one that is open. */
export function AuthorPane() {
  const revealed = useRevealed('author');
  return (
    <div className="author">
      <FileList />
      <div className="author-editor" id="author-editor" role="tabpanel" aria-label="Editor">
        {revealed && (
          <Suspense fallback={<p className="loading">Loading the editor…</p>}>
            <MonacoEditor />
          </Suspense>
        )}
      </div>
    </div>
  );
}
