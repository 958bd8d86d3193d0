import { describe, expect, it } from 'vitest';
import { categoryColor, edgeStyle, nodeRadius } from './palette.ts';
import { escapeXml, graphToSvg } from './svg.ts';
import { testEdge, testNode } from '../testing/graphs.ts';
import type { PolicyGraph } from './types.ts';

const node = (id: string, category: string, challenge = 3) =>
  testNode(id, { category, challenge, text: `Text of ${id}`, path: ['policies', 0] });
const edge = testEdge;

const ODD = `<&>"'`;
const GRAPH: PolicyGraph = {
  nodes: [
    node('refund-window', 'refunds', 1),
    node('verify-identity', 'identity', 5),
    node(ODD, ODD, 3),
    node('unplaced', 'refunds', 2),
  ],
  edges: [
    edge('refund-window', 'verify-identity', 7, 'manual'),
    edge(ODD, 'refund-window', 3, 'heuristic'),
    edge(ODD, 'verify-identity', 10, 'model'),
    edge('refund-window', 'unplaced', 5, 'manual'),
  ],
  categories: ['refunds', 'identity', ODD],
};
const POSITIONS = new Map<string, { x: number; y: number }>([
  ['refund-window', { x: 0, y: 0 }],
  ['verify-identity', { x: 200, y: 50.123 }],
  [ODD, { x: -80, y: 120 }],
]);

/**
 * A small well-formedness check: the text is made only of a prolog, comments, tags and text;
 * tags nest and close; attribute values are quoted; `<` never and `&` only as an entity appear
 * raw in text or attributes. Returns the elements met, by name, in order.
 */
function wellFormed(svg: string): string[] {
  const entity = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/;
  const tokens = svg.match(/<\?xml[^>]*\?>|<!--[\s\S]*?-->|<[^>]*>|[^<]+/g) ?? [];
  expect(tokens.join('')).toBe(svg);
  expect(tokens[0]).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>$/);
  const open: string[] = [];
  const elements: string[] = [];
  for (const token of tokens.slice(1)) {
    if (token.startsWith('<!--')) continue;
    if (!token.startsWith('<')) {
      expect(token, 'raw & in text').not.toMatch(entity);
      continue;
    }
    const tag = /^<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>$/.exec(token);
    expect(tag, token).not.toBeNull();
    const [, closing, name = '', attributes = '', selfClosing] = tag ?? [];
    expect(attributes, 'raw & in an attribute').not.toMatch(entity);
    const names = [...attributes.matchAll(/([\w:-]+)=/g)].map((m) => m[1]);
    expect(new Set(names).size, `repeated attribute in ${token}`).toBe(names.length);
    if (closing) {
      expect(open.pop(), `closing ${name}`).toBe(name);
    } else {
      elements.push(name);
      if (!selfClosing) open.push(name);
    }
  }
  expect(open).toEqual([]);
  expect(elements[0]).toBe('svg');
  return elements;
}

function count(svg: string, pattern: RegExp): number {
  return svg.match(new RegExp(pattern.source, 'g'))?.length ?? 0;
}

describe('graphToSvg', () => {
  const svg = graphToSvg(GRAPH, POSITIONS, { theme: 'light', title: `Policies ${ODD}` });

  it('writes well-formed XML with every text escaped', () => {
    wellFormed(svg);
    expect(svg).not.toContain(ODD);
    expect(svg).toMatch(
      /<text class="label" x="[-\d.]+" y="[-\d.]+">&lt;&amp;&gt;&quot;&apos;<\/text>/,
    );
    expect(svg).toContain('<title>Policies &lt;&amp;&gt;&quot;&apos;</title>');
  });

  it('draws the placed nodes and the edges between them, and says what it left out', () => {
    expect(count(svg, /<circle class="node"/)).toBe(3);
    expect(count(svg, /<text class="label"/)).toBe(3);
    expect(count(svg, /<line class="edge /)).toBe(3);
    expect(svg).not.toContain('unplaced');
    expect(svg).toContain(
      '<desc>3 policies and 3 relations. 1 policy without a position is not drawn.</desc>',
    );
  });

  it('colours nodes by category, sizes them by challenge, and styles edges by origin', () => {
    expect(svg).toContain(
      `<circle class="node" cx="200" cy="50.12" r="${nodeRadius(5)}" fill="${categoryColor(1, 'light')}">`,
    );
    expect(svg).toMatch(/<line class="edge edge-manual"[^>]*stroke-width="4.5"(?! stroke-dash)/);
    expect(svg).toMatch(
      new RegExp(
        `class="edge edge-heuristic"[^>]*stroke-dasharray="${edgeStyle('heuristic', 'light').dash ?? ''}"`,
      ),
    );
    expect(svg).toMatch(/class="edge edge-model"[^>]*stroke-width="6" stroke-dasharray="2 3"/);
  });

  it('lists every category and the edge kinds drawn in the legend', () => {
    expect(count(svg, /class="legend-category"/)).toBe(3);
    expect(count(svg, /class="legend-edge"/)).toBe(3);
    for (const [i, category] of ['refunds', 'identity'].entries()) {
      expect(svg).toContain(`fill="${categoryColor(i, 'light')}"/>\n<text x="`);
      expect(svg).toContain(`>${category}</text>`);
    }
  });

  it('fits the view box around the nodes, their labels and the legend', () => {
    const [x, y, width, height] = (/viewBox="([^"]+)"/.exec(svg)?.[1] ?? '').split(' ').map(Number);
    expect(x).toBeLessThan(-80 - nodeRadius(3));
    expect(y).toBeLessThan(0 - nodeRadius(1) - 30);
    expect((x ?? 0) + (width ?? 0)).toBeGreaterThan(200 + nodeRadius(5) + 140);
    expect((y ?? 0) + (height ?? 0)).toBeGreaterThan(120 + nodeRadius(3) + 11);
  });

  it('draws the dark theme on a dark background, and leaves labels out on request', () => {
    const dark = graphToSvg(GRAPH, POSITIONS, { theme: 'dark', showLabels: false });
    wellFormed(dark);
    expect(dark).toContain('fill="#1e1e1e"');
    expect(dark).toContain(`fill="${categoryColor(0, 'dark')}"`);
    expect(count(dark, /<text class="label"/)).toBe(0);
    expect(dark).not.toContain('<title>Policies');
  });

  it('gives a small valid picture for an empty graph', () => {
    const empty = graphToSvg({ nodes: [], edges: [], categories: [] }, new Map(), {
      theme: 'light',
    });
    expect(wellFormed(empty)).toEqual(['svg', 'desc', 'rect', 'g', 'g', 'g']);
    expect(empty).toContain('viewBox="-24 -24 48 48"');
    expect(empty).toContain('<desc>0 policies and 0 relations.</desc>');
  });

  it('skips positions that are not numbers', () => {
    const odd = graphToSvg(GRAPH, new Map([['refund-window', { x: Number.NaN, y: 0 }]]), {
      theme: 'light',
    });
    wellFormed(odd);
    expect(count(odd, /<circle class="node"/)).toBe(0);
    expect(odd).toContain('4 policies without a position are not drawn.');
  });
});

describe('escapeXml', () => {
  it('escapes markup and drops what XML cannot hold', () => {
    expect(escapeXml(`a<b>&"c'`)).toBe('a&lt;b&gt;&amp;&quot;c&apos;');
    expect(escapeXml('bell\u0007 tab\t \uD800 ok 🙂')).toBe('bell tab\t  ok 🙂');
  });
});
