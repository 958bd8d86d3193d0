import { useAppStore } from '../../state/useAppStore.ts';
import { PROJECT_FILES } from '../../core/index.ts';

/** Actions on the open file: format it, try tool calls beside rules.yaml, extract policies. */
export function EditorToolbar({
  playgroundOpen,
  onTogglePlayground,
  onExtract,
  onDraftGuard,
}: {
  playgroundOpen: boolean;
  onTogglePlayground: () => void;
  onExtract: () => void;
  /** Opens the guard drafter (a model drafts a guard rule for a policy). */
  onDraftGuard: () => void;
}) {
  const activeFile = useAppStore((s) => s.activeFile);
  const summary = PROJECT_FILES.find((f) => f.name === activeFile)?.summary ?? '';
  return (
    <div className="editor-toolbar" role="toolbar" aria-label="File actions">
      <span className="editor-toolbar-file">{activeFile}</span>
      <span className="editor-toolbar-summary">{summary}</span>
      {activeFile === 'agent.md' && (
        <button type="button" className="toolbar-button" onClick={onExtract}>
          Extract policies
        </button>
      )}
      {(activeFile === 'policies.yaml' || activeFile === 'rules.yaml') && (
        <button type="button" className="toolbar-button" onClick={onDraftGuard}>
          Draft a guard rule
        </button>
      )}
      {activeFile === 'rules.yaml' && (
        <button
          type="button"
          className="toolbar-button"
          aria-pressed={playgroundOpen}
          onClick={onTogglePlayground}
        >
          Try a tool call
        </button>
      )}
    </div>
  );
}
