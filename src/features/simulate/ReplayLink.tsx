import type { ReactNode } from 'react';
import { useAppStore } from '../../state/useAppStore.ts';

/** Opens a dialogue in the Replay pane, at a raw turn when given (where something broke). */
export function ReplayLink({
  run,
  dialogue,
  turn,
  children,
}: {
  run: string;
  dialogue: string;
  turn?: number | undefined;
  children: ReactNode;
}) {
  const openReplay = useAppStore((s) => s.openReplay);
  const showPane = useAppStore((s) => s.showPane);
  return (
    <button
      type="button"
      className="link-button"
      title={`Replay ${dialogue}`}
      onClick={() => {
        void openReplay({ run, dialogue, ...(turn !== undefined && { turn }) }).then(() => {
          showPane('replay');
        });
      }}
    >
      {children}
    </button>
  );
}
