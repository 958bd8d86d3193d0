import { useCallback, useState } from 'react';
import type { PolicyFlowNode } from './PolicyNode.tsx';

/** The policy under the pointer; pass the handlers to React Flow. */
export function useHoveredPolicy() {
  const [hovered, setHovered] = useState<string | null>(null);
  const onNodeMouseEnter = useCallback((_: unknown, node: PolicyFlowNode) => {
    setHovered(node.id);
  }, []);
  const onNodeMouseLeave = useCallback(() => {
    setHovered(null);
  }, []);
  return { hovered, onNodeMouseEnter, onNodeMouseLeave };
}
