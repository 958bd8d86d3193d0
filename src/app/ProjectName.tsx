import { useState } from 'react';
import { MAX_PROJECT_NAME_LENGTH } from '../core/index.ts';
import { selectProjectName } from '../state/selectors.ts';
import { useAppStore } from '../state/useAppStore.ts';

/** The project's name in the header; click (or Enter) to rename it in place. */
export function ProjectName() {
  const name = useAppStore(selectProjectName);
  const renameProject = useAppStore((s) => s.renameProject);
  const [draft, setDraft] = useState<string | null>(null);

  if (draft === null) {
    return (
      <button
        type="button"
        className="project-name"
        title="Rename project"
        aria-label={`Project: ${name}. Rename`}
        onClick={() => {
          setDraft(name);
        }}
      >
        {name}
      </button>
    );
  }

  const commit = () => {
    renameProject(draft);
    setDraft(null);
  };
  return (
    <input
      className="project-name-input"
      aria-label="Project name"
      value={draft}
      maxLength={MAX_PROJECT_NAME_LENGTH * 2}
      autoFocus
      onFocus={(e) => {
        e.currentTarget.select();
      }}
      onChange={(e) => {
        setDraft(e.currentTarget.value);
      }}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
        if (e.key === 'Escape') setDraft(null);
      }}
    />
  );
}
