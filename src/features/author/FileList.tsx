import type { KeyboardEvent } from 'react';
import { PROJECT_FILES } from '../../core/index.ts';
import { selectActiveFile } from '../../state/selectors.ts';
import { useAppStore, useSelectors } from '../../state/useAppStore.ts';
import { Icon } from '../../ui/Icon.tsx';

/** The project's six files as a vertical tab list; arrow keys move between them. */
export function FileList() {
  const activeFile = useAppStore(selectActiveFile);
  const openFile = useAppStore((s) => s.openFile);
  const dirty = useAppStore(useSelectors().selectDirtyFiles);
  const diagnostics = useAppStore((s) => s.analysis?.diagnostics);
  const errorsIn = (file: string) =>
    diagnostics?.filter((d) => d.file === file && d.severity === 'error').length ?? 0;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    const at = PROJECT_FILES.findIndex((f) => f.name === activeFile);
    let next: number | undefined;
    if (step !== undefined) next = (at + step + PROJECT_FILES.length) % PROJECT_FILES.length;
    if (event.key === 'Home') next = 0;
    if (event.key === 'End') next = PROJECT_FILES.length - 1;
    const file = next === undefined ? undefined : PROJECT_FILES[next];
    if (!file) return;
    event.preventDefault();
    openFile(file.name);
    event.currentTarget.querySelector<HTMLElement>(`[data-file="${file.name}"]`)?.focus();
  };

  return (
    <div
      className="file-list"
      role="tablist"
      aria-label="Project files"
      aria-orientation="vertical"
      onKeyDown={onKeyDown}
    >
      {PROJECT_FILES.map((file) => {
        const selected = file.name === activeFile;
        const unsaved = dirty.includes(file.name);
        const errors = errorsIn(file.name);
        return (
          <button
            key={file.name}
            type="button"
            role="tab"
            aria-selected={selected}
            aria-controls="author-editor"
            tabIndex={selected ? 0 : -1}
            title={`${file.summary}${unsaved ? ' (unsaved changes)' : ''}`}
            className="file-list-item"
            data-file={file.name}
            onClick={() => {
              openFile(file.name);
            }}
          >
            <Icon name="file" size={13} />
            <span className="file-name">{file.name}</span>
            {errors > 0 && (
              <span
                className="file-errors"
                aria-label={`${errors} error${errors === 1 ? '' : 's'}`}
              >
                {errors}
              </span>
            )}
            {unsaved && <span className="file-dirty" aria-label="unsaved changes" />}
          </button>
        );
      })}
    </div>
  );
}
