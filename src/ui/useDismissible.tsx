import type { ReactNode } from 'react';
import { createContext, useContext, useEffect, useRef, useState } from 'react';
import { DismissStack } from './dismissStack.ts';

const DismissContext = createContext<DismissStack | null>(null);

/** Gives the page one stack of what Escape closes (the shell's keyboard handler reads it). */
export function DismissProvider({ children }: { children: ReactNode }) {
  const [stack] = useState(() => new DismissStack());
  return <DismissContext.Provider value={stack}>{children}</DismissContext.Provider>;
}

/** The page's stack of what Escape closes; null outside a `DismissProvider`. */
export function useDismissStack(): DismissStack | null {
  return useContext(DismissContext);
}

/**
 * Registers something Escape closes (a dialog, a panel) while `open`: the shell closes the
 * innermost such layer first. `modal` layers (dialogs) are inside all others.
 */
export function useDismissible(open: boolean, dismiss: () => void, modal = false) {
  const stack = useContext(DismissContext);
  const latest = useRef(dismiss);
  useEffect(() => {
    latest.current = dismiss;
  });
  useEffect(() => {
    if (!open || !stack) return;
    return stack.push({
      modal,
      dismiss: () => {
        latest.current();
      },
    });
  }, [open, modal, stack]);
}
