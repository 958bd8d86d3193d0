import { memo } from 'react';
import { LABEL_FONT_FAMILY } from '../../core/index.ts';
import type { PolicyFlowNode } from './PolicyNode.tsx';
import type { LabelInputs } from './useLabelPlacement.ts';
import { LABEL_FONT_SIZE, LABEL_LINE_HEIGHT, useLabelPlacement } from './useLabelPlacement.ts';

const LAYER_STYLE = {
  fontFamily: LABEL_FONT_FAMILY,
  fontSize: LABEL_FONT_SIZE,
  lineHeight: `${LABEL_LINE_HEIGHT}px`,
};

/**
 * The policies' ids over the canvas, in one layer in screen space: as many as fit without
 * overlapping each other, another node or what floats over the canvas, the most important first
 * (see `useLabelPlacement`). A policy without a label shows it on hover, and in its node's title.
 */
export const GraphLabels = memo(function GraphLabels(props: LabelInputs) {
  const { labels, layer } = useLabelPlacement(props);
  const byId = new Map<string, PolicyFlowNode>(props.nodes.map((n) => [n.id, n]));
  return (
    <div className="graph-labels" aria-hidden="true">
      <div ref={layer} className="graph-labels-layer" style={LAYER_STYLE}>
        {labels.map((label) => {
          const node = byId.get(label.id);
          const classes = ['policy-label'];
          if (node?.selected) classes.push('is-selected');
          if (node?.data.dimmed || node?.data.replay === 'out') classes.push('is-dimmed');
          if (node?.data.replay === 'breached') classes.push('is-breached');
          return (
            <span
              key={label.id}
              className={classes.join(' ')}
              data-id={label.id}
              style={{ left: label.x, top: label.y, width: label.width, height: label.height }}
            >
              {label.text}
            </span>
          );
        })}
      </div>
    </div>
  );
});
