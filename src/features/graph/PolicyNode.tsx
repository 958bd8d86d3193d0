import type { Node, NodeProps } from '@xyflow/react';
import { Handle, Position } from '@xyflow/react';
import { memo } from 'react';
import type { GraphNode } from '../../core/index.ts';
import type { ReplayMark } from './flowElements.ts';

/** What a policy node draws: the policy, its colour and size, and how the filters mark it. */
export interface PolicyNodeData extends Record<string, unknown> {
  readonly policy: GraphNode;
  readonly color: string;
  readonly radius: number;
  /** Another policy matches the search and this one does not. */
  readonly dimmed: boolean;
  readonly matched: boolean;
  readonly pinned: boolean;
  /** How the replayed step marks it, while a dialogue is replayed. */
  readonly replay?: ReplayMark;
  /** Its failure rate in the run the graph shows (null: not tested there); absent for none. */
  readonly failureRate?: number | null;
}

export type PolicyFlowNode = Node<PolicyNodeData, 'policy'>;

const REPLAY_TITLES: Readonly<Record<ReplayMark, string>> = {
  breached: ' — broken at the replayed step',
  lit: ' — concerned by the replayed step',
  'in-play': ' — under test in the replayed dialogue',
  out: '',
};

/**
 * A policy as a circle: colour by category, size by challenge (its id is drawn by `GraphLabels`,
 * and named in its title). The handle on its right edge starts a new relation; drop it on another
 * policy.
 */
export const PolicyNode = memo(function PolicyNode({ data, selected }: NodeProps<PolicyFlowNode>) {
  const { policy, color, radius, dimmed, matched, pinned, replay, failureRate } = data;
  const classes = ['policy-node'];
  if (selected) classes.push('is-selected');
  if (dimmed) classes.push('is-dimmed');
  if (matched) classes.push('is-matched');
  if (replay) classes.push(`is-replay-${replay}`);
  if (failureRate === null) classes.push('is-untested');
  return (
    <div
      className={classes.join(' ')}
      style={{ width: radius * 2, height: radius * 2, background: color }}
      data-replay={replay}
      data-failure-rate={failureRate === undefined ? undefined : (failureRate ?? 'untested')}
      title={`${policy.id} (${policy.category}, challenge ${policy.challenge})${pinned ? ', placed by hand' : ''}${replay ? REPLAY_TITLES[replay] : ''}\n${policy.text}`}
    >
      <Handle
        type="source"
        position={Position.Right}
        className="policy-handle"
        aria-label={`Connect ${policy.id} to another policy`}
      />
    </div>
  );
});
