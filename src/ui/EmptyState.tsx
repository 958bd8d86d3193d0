import type { ReactNode } from 'react';
import type { IconName } from './Icon.tsx';
import { Icon } from './Icon.tsx';

/** The centred message a pane shows while it has nothing to show. */
export function EmptyState({
  icon,
  title,
  children,
}: {
  icon: IconName;
  title: string;
  children: ReactNode;
}) {
  return (
    <div className="empty-state">
      <span className="empty-state-icon">
        <Icon name={icon} size={28} />
      </span>
      <h3 className="empty-state-title">{title}</h3>
      <div className="empty-state-body">{children}</div>
    </div>
  );
}
