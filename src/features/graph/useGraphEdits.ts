import type { Edge, Node, OnConnect } from '@xyflow/react';
import type { KeyboardEvent, RefObject } from 'react';
import { useCallback } from 'react';
import type { PolicyGraph } from '../../core/index.ts';
import { deletePolicy, setRelation } from '../../core/index.ts';
import { useAppStoreApi } from '../../state/useAppStore.ts';
import { dropEdge } from './flowElements.ts';

/**
 * What the canvas changes in policies.yaml, each one undo step: a relation drawn from one policy
 * to another, relations and policies deleted, and Ctrl+Z / Ctrl+Y on the canvas (policies.yaml's
 * history, shared with the editor). `root` is the canvas element, which keeps the keyboard after a
 * deleted node; `selectEdge` is the canvas's relation selection, cleared when relations go.
 */
export function useGraphEdits(
  graph: PolicyGraph,
  root: RefObject<HTMLElement | null>,
  selectEdge: (id: string | null) => void,
) {
  const store = useAppStoreApi();

  const onConnect: OnConnect = useCallback(
    ({ source, target }) => {
      if (!source || !target || source === target) return;
      store
        .getState()
        .editPolicies(`Connect ${source} and ${target}`, (text) =>
          setRelation(text, source, target, 5, 'manual'),
        );
    },
    [store],
  );

  const onEdgesDelete = useCallback(
    (removed: Edge[]) => {
      const byId = new Map(graph.edges.map((e) => [e.id, e]));
      for (const { id } of removed) {
        const edge = byId.get(id);
        if (edge) dropEdge(store, edge);
      }
      selectEdge(null);
    },
    [graph.edges, store, selectEdge],
  );

  return {
    onConnect,
    onEdgesDelete,
    onNodesDelete: (removed: Node[]) => {
      for (const node of removed) {
        store.getState().editPolicies(`Delete ${node.id}`, (text) => deletePolicy(text, node.id));
      }
      // The focused node is gone: keep the keyboard in the graph, so Ctrl+Z undoes here.
      root.current?.focus();
    },
    onKeyDown: (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      const target = event.target as HTMLElement;
      if (target.closest('input, textarea, select')) return;
      const key = event.key.toLowerCase();
      const redo = (key === 'z' && event.shiftKey) || key === 'y';
      if (key !== 'z' && key !== 'y') return;
      event.preventDefault();
      if (redo) store.getState().redo('policies.yaml');
      else store.getState().undo('policies.yaml');
    },
  };
}
