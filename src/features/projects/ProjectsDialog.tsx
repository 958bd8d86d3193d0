import { useState } from 'react';
import type { ProjectSummary } from '../../core/index.ts';
import { useAppStore } from '../../state/useAppStore.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { IconButton } from '../../ui/IconButton.tsx';
import { NameInput } from '../../ui/NameInput.tsx';

/** The project list: examples to start from, a new project, and every project on this device. */
export function ProjectsDialog() {
  const open = useAppStore((s) => s.projectsOpen);
  const setOpen = useAppStore((s) => s.setProjectsOpen);
  const examples = useAppStore((s) => s.exampleList);
  const projects = useAppStore((s) => s.projects);
  const openExample = useAppStore((s) => s.openExample);
  const newProject = useAppStore((s) => s.newProject);
  const close = () => {
    setOpen(false);
  };

  return (
    <Dialog open={open} title="Projects" onClose={close} wide>
      <h3 className="dialog-section">Start from an example</h3>
      <div className="example-grid">
        {examples.map((example) => (
          <article key={example.id} className="example-card">
            <h4>{example.name}</h4>
            <p>{example.summary}</p>
            <button
              type="button"
              className="button"
              onClick={() => {
                close();
                void openExample(example.id);
              }}
            >
              Open a copy
            </button>
          </article>
        ))}
      </div>
      <div className="dialog-row">
        <h3 className="dialog-section">On this device</h3>
        <button
          type="button"
          className="button button-quiet"
          onClick={() => {
            close();
            void newProject();
          }}
        >
          New empty project
        </button>
      </div>
      <ul className="project-list" aria-label="Projects on this device">
        {projects.map((project) => (
          <ProjectRow key={project.id} project={project} onOpened={close} />
        ))}
      </ul>
    </Dialog>
  );
}

function ProjectRow({ project, onOpened }: { project: ProjectSummary; onOpened: () => void }) {
  const current = useAppStore((s) => s.projectId === project.id);
  const openProject = useAppStore((s) => s.openProject);
  const duplicateProject = useAppStore((s) => s.duplicateProject);
  const deleteProject = useAppStore((s) => s.deleteProject);
  const renameStored = useAppStore((s) => s.renameStored);
  const [draft, setDraft] = useState<string | null>(null);

  return (
    <li className="project-row" data-current={current}>
      {draft === null ? (
        <button
          type="button"
          className="project-open"
          aria-current={current ? 'true' : undefined}
          onClick={() => {
            onOpened();
            if (!current) void openProject(project.id);
          }}
        >
          <span className="project-row-name">{project.name}</span>
          <span className="project-row-meta">
            {current ? 'open now' : `changed ${formatWhen(project.updatedAt)}`}
          </span>
        </button>
      ) : (
        <NameInput
          initial={draft}
          label={`New name for ${project.name}`}
          onDone={(name) => {
            if (name !== null) void renameStored(project.id, name);
            setDraft(null);
          }}
        />
      )}
      <IconButton
        icon="author"
        label={`Rename ${project.name}`}
        onClick={() => {
          setDraft(project.name);
        }}
      />
      <IconButton
        icon="file"
        label={`Duplicate ${project.name}`}
        onClick={() => {
          onOpened();
          void duplicateProject(project.id);
        }}
      />
      <IconButton
        icon="close"
        label={`Delete ${project.name}`}
        onClick={() => {
          void deleteProject(project.id);
        }}
      />
    </li>
  );
}

function formatWhen(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? 'at an unknown time'
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
