import { PANE_IDS } from '../state/slices/uiSlice.ts';
import { useAppStore, useSelectors } from '../state/useAppStore.ts';
import { Icon } from '../ui/Icon.tsx';
import { IconButton } from '../ui/IconButton.tsx';
import { PANES, paneShortcut } from './panes.ts';
import { ProjectName } from './ProjectName.tsx';
import { ThemeSwitch } from './ThemeSwitch.tsx';
import { useWorkbench } from './workbench/WorkbenchContext.ts';

/** The top bar: the product, the project's name, which panes show, layout, help and theme. */
export function Header() {
  const resetLayout = useAppStore((s) => s.resetLayout);
  const setShortcutsOpen = useAppStore((s) => s.setShortcutsOpen);
  const setProjectsOpen = useAppStore((s) => s.setProjectsOpen);
  const setModelsOpen = useAppStore((s) => s.setModelsOpen);

  return (
    <header className="app-header">
      <div className="brand">
        <span className="brand-mark">
          <Icon name="logo" size={18} />
        </span>
        <span className="brand-name">PolicyLab</span>
      </div>
      <span className="header-divider" aria-hidden="true" />
      <ProjectName />
      <button
        type="button"
        className="header-button"
        onClick={() => {
          setProjectsOpen(true);
        }}
      >
        <Icon name="file" size={14} />
        Projects
      </button>
      <button
        type="button"
        className="header-button"
        onClick={() => {
          setModelsOpen(true);
        }}
      >
        <Icon name="chip" size={14} />
        Models
      </button>
      <nav className="view-toggles" aria-label="Panes">
        {PANE_IDS.map((pane) => (
          <PaneToggle key={pane} pane={pane} />
        ))}
      </nav>
      <div className="header-actions">
        <IconButton icon="reset" label="Reset layout" onClick={resetLayout} />
        <IconButton
          icon="keyboard"
          label="Keyboard shortcuts"
          shortcut="?"
          onClick={() => {
            setShortcutsOpen(true);
          }}
        />
        <ThemeSwitch />
      </div>
    </header>
  );
}

function PaneToggle({ pane }: { pane: (typeof PANE_IDS)[number] }) {
  const { togglePane } = useWorkbench();
  const { selectHiddenPanes } = useSelectors();
  const visible = useAppStore((s) => !selectHiddenPanes(s).includes(pane));
  const isLastVisible = useAppStore(
    (s) => visible && selectHiddenPanes(s).length === PANE_IDS.length - 1,
  );
  const { title, icon } = PANES[pane];
  return (
    <button
      type="button"
      className="view-toggle"
      aria-pressed={visible}
      aria-disabled={isLastVisible}
      title={`${visible ? 'Hide' : 'Show'} ${title} (${paneShortcut(pane)} jumps to it)`}
      data-pane-toggle={pane}
      onClick={() => {
        togglePane(pane);
      }}
    >
      <Icon name={icon} size={14} />
      <span>{title}</span>
    </button>
  );
}
