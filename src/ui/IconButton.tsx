import type { ButtonHTMLAttributes } from 'react';
import type { IconName } from './Icon.tsx';
import { Icon } from './Icon.tsx';

type IconButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> & {
  icon: IconName;
  /** The accessible name, also shown as the tooltip. */
  label: string;
  /** A keyboard shortcut to mention in the tooltip. */
  shortcut?: string;
};

/** A square button showing only an icon; its label is read out and shown on hover. */
export function IconButton({ icon, label, shortcut, className, ...rest }: IconButtonProps) {
  return (
    <button
      type="button"
      className={className ? `icon-button ${className}` : 'icon-button'}
      aria-label={label}
      title={shortcut ? `${label} (${shortcut})` : label}
      {...rest}
    >
      <Icon name={icon} />
    </button>
  );
}
