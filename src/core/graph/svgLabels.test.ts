import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeProject } from '../analyze.ts';
import type { Project } from '../project.ts';
import { buildGraph } from './build.ts';
import type { Rect } from './labels.ts';
import { overlaps } from './labels.ts';
import { layoutGraph } from './layout.ts';
import { nodeRadius } from './palette.ts';
import { graphToSvg } from './svg.ts';
import { approximateTextWidth } from './textWidth.ts';

// The exported picture of the airline example (58 policies), laid out as the app lays it out:
// its labels, read back from the SVG's text positions, must not overlap each other or a node.

const FILES = [
  'agent.md',
  'policies.yaml',
  'tools.yaml',
  'database.yaml',
  'rules.yaml',
  'scenarios.yaml',
];
const read = (name: string) =>
  readFileSync(new URL(`../../../public/examples/airline/${name}`, import.meta.url), 'utf8');

function airlineSvg(): string {
  const project = { name: 'Airline', files: Object.fromEntries(FILES.map((f) => [f, read(f)])) };
  const graph = buildGraph(analyzeProject(project as unknown as Project).model);
  const { positions } = layoutGraph(
    {
      nodes: graph.nodes.map((n) => ({ id: n.id, radius: nodeRadius(n.challenge) })),
      edges: graph.edges.filter((e) => e.weight > 0),
    },
    { seed: 7 },
  );
  return graphToSvg(graph, positions, { theme: 'light', title: 'Airline' });
}

/** Each label's box, from its text's start and baseline and the width table at 11 px. */
function labelBoxes(svg: string): (Rect & { text: string })[] {
  const boxes = [];
  for (const [, x, y, text] of svg.matchAll(
    /<text class="label" x="([-\d.]+)" y="([-\d.]+)">([^<]*)</g,
  )) {
    const plain = (text ?? '').replace(/&amp;/g, '&');
    boxes.push({
      text: plain,
      x: Number(x),
      y: Number(y) - 11 * 0.8,
      width: approximateTextWidth(plain, 11),
      height: 11,
    });
  }
  return boxes;
}

function circles(svg: string) {
  return [...svg.matchAll(/<circle class="node" cx="([-\d.]+)" cy="([-\d.]+)" r="([-\d.]+)"/g)].map(
    ([, x, y, r]) => ({ x: Number(x), y: Number(y), r: Number(r) }),
  );
}

describe('the exported airline graph', () => {
  const svg = airlineSvg();
  const boxes = labelBoxes(svg);

  it('labels nearly every policy', () => {
    expect(boxes.length).toBeGreaterThanOrEqual(50);
  });

  it('has no two labels overlapping', () => {
    const pairs: string[] = [];
    boxes.forEach((a, i) => {
      for (const b of boxes.slice(i + 1)) if (overlaps(a, b)) pairs.push(`${a.text} × ${b.text}`);
    });
    expect(pairs).toEqual([]);
  });

  it('has no label over a node', () => {
    const covered: string[] = [];
    for (const box of boxes) {
      for (const c of circles(svg)) {
        const dx = c.x - Math.max(box.x, Math.min(c.x, box.x + box.width));
        const dy = c.y - Math.max(box.y, Math.min(c.y, box.y + box.height));
        if (dx * dx + dy * dy < c.r * c.r) covered.push(box.text);
      }
    }
    expect(covered).toEqual([]);
  });
});
