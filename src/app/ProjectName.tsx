import { useState } from 'react';
import { MAX_PROJECT_NAME_LENGTH } from '../core/index.ts';
import { selectProjectName } from '../state/selectors.ts';
import { useAppStore } from '../state/useAppStore.ts';
import { NameInput } from '../ui/NameInput.tsx';

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

  return (
    <NameInput
      initial={draft}
      label="Project name"
      maxLength={MAX_PROJECT_NAME_LENGTH * 2}
      onDone={(name) => {
        if (name !== null) renameProject(name);
        setDraft(null);
      }}
    />
  );
}
