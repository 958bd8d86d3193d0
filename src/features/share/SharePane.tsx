import { EmptyState } from '../../ui/EmptyState.tsx';

/** The Share pane: links, file export and import, pictures of the graph. */
export function SharePane() {
  return (
    <EmptyState icon="share" title="Share this project">
      <p>
        A link that opens the same project and graph layout in anyone&apos;s browser, file export
        and import of projects and runs, and pictures of the graph. Keys never leave your browser.
      </p>
      <p className="empty-state-note">Sharing is not available yet.</p>
    </EmptyState>
  );
}
