import type { ReactNode, Ref } from 'react';
import type { IconName } from './Icon.tsx';
import { Icon } from './Icon.tsx';
import { IconButton } from './IconButton.tsx';

export interface PaneFrameProps {
  id: string;
  title: string;
  icon: IconName;
  shortcut: string;
  maximized: boolean;
  canHide: boolean;
  onToggleMaximize: () => void;
  onHide: () => void;
  sectionRef?: Ref<HTMLElement>;
  /** Behind another tab of its slot: kept mounted, not shown. */
  inactive?: boolean;
  /** Tabs of the panes sharing the slot, before and after this pane's title. */
  tabsBefore?: ReactNode;
  tabsAfter?: ReactNode;
  children: ReactNode;
}

/**
 * The frame of one workbench pane: a labelled landmark with a title bar (maximize, hide) and the
 * pane's content. The section itself takes focus when the pane is jumped to from the keyboard.
 */
export function PaneFrame({
  id,
  title,
  icon,
  shortcut,
  maximized,
  canHide,
  onToggleMaximize,
  onHide,
  sectionRef,
  inactive = false,
  tabsBefore,
  tabsAfter,
  children,
}: PaneFrameProps) {
  const tabbed = tabsBefore !== undefined || tabsAfter !== undefined;
  const titleId = `pane-${id}-title`;
  return (
    <section
      ref={sectionRef}
      className="pane"
      data-pane={id}
      aria-labelledby={titleId}
      tabIndex={-1}
      hidden={inactive}
    >
      <header
        className="pane-header"
        data-tabbed={tabbed || undefined}
        onDoubleClick={onToggleMaximize}
      >
        {tabsBefore}
        <span className="pane-heading">
          <span className="pane-icon" data-pane-icon={id}>
            <Icon name={icon} size={14} />
          </span>
          <h2 id={titleId} className="pane-title">
            {title}
          </h2>
          <span className="pane-shortcut" aria-hidden="true">
            {shortcut}
          </span>
        </span>
        {tabsAfter}
        <span className="pane-actions">
          <IconButton
            icon={maximized ? 'restore' : 'maximize'}
            label={maximized ? `Restore ${title}` : `Maximize ${title}`}
            aria-pressed={maximized}
            {...(maximized ? { shortcut: 'Esc' } : {})}
            onClick={onToggleMaximize}
          />
          <IconButton icon="hide" label={`Hide ${title}`} disabled={!canHide} onClick={onHide} />
        </span>
      </header>
      <div className="pane-body">{children}</div>
    </section>
  );
}
