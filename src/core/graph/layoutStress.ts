import type { Point } from './layout.ts';

/** A node as the stress layout sees it; `pin` marks a node that must not move. */
export interface StressNode {
  readonly index: number;
  readonly radius: number;
  readonly pin?: Point | undefined;
  x: number;
  y: number;
}

/** Each node's neighbours, by index, with edge weights 0..1. */
export type Neighbours = readonly (readonly { readonly node: number; readonly weight: number }[])[];

/** What the stress layout needs besides the graph. */
export interface StressOptions {
  /** The length an edge of this weight (0..1) should have between these two nodes. */
  readonly edgeLength: (a: StressNode, b: StressNode, weight: number) => number;
  readonly random: () => number;
  readonly sweeps: number;
  /** Asked before each sweep; false stops the sweeps (the components are still packed). */
  readonly next: () => boolean;
}

const MDS_ITERATIONS = 150;
/** Space left between packed components. */
const COMPONENT_GAP = 24;

/** The mean position of some nodes ((0, 0) for none). */
export function centroid(nodes: readonly Point[]): Point {
  if (nodes.length === 0) return { x: 0, y: 0 };
  let x = 0;
  let y = 0;
  for (const n of nodes) {
    x += n.x;
    y += n.y;
  }
  return { x: x / nodes.length, y: y / nodes.length };
}

/**
 * Stress majorization (as in Graphviz neato or ELK stress): nodes are placed so that their
 * distances match the graph's weighted shortest-path lengths, nearer pairs counting more.
 * Classical MDS of those lengths gives the start (turned to fit any pinned nodes), then each
 * sweep moves every free node to where its distances best match. Pairs in different components
 * do not pull on each other; the components are packed side by side at the end. Costs O(n²)
 * memory and O(n³) time, so it is for graphs of a few hundred nodes.
 */
export function stressLayout(
  nodes: readonly StressNode[],
  neighbours: Neighbours,
  options: StressOptions,
): void {
  const n = nodes.length;
  const { dist, component } = pathLengths(nodes, neighbours, options.edgeLength);
  const { xs, ys } = classicalMds(n, dist, options.random);
  placeByMds(nodes, xs, ys);
  // The sweeps work on flat arrays (this is the hot loop), written back to the nodes at the end.
  const x = Float64Array.from(nodes, (node) => node.x);
  const y = Float64Array.from(nodes, (node) => node.y);
  for (let sweep = 0; sweep < options.sweeps && options.next(); sweep++) {
    for (let i = 0; i < n; i++) {
      if (nodes[i]?.pin) continue;
      const xi = x[i] ?? 0;
      const yi = y[i] ?? 0;
      const ci = component[i];
      let sx = 0;
      let sy = 0;
      let sw = 0;
      for (let j = 0; j < n; j++) {
        if (j === i || component[j] !== ci) continue;
        const d = dist[i * n + j] ?? 1;
        const w = 1 / (d * d);
        const xj = x[j] ?? 0;
        const yj = y[j] ?? 0;
        const dx = xi - xj;
        const dy = yi - yj;
        const l = Math.sqrt(dx * dx + dy * dy) || 1e-3;
        sx += w * (xj + (d * dx) / l);
        sy += w * (yj + (d * dy) / l);
        sw += w;
      }
      if (sw > 0) {
        x[i] = sx / sw;
        y[i] = sy / sw;
      }
    }
  }
  for (const node of nodes) {
    node.x = x[node.index] ?? node.x;
    node.y = y[node.index] ?? node.y;
  }
  packComponents(nodes, component);
}

/** All-pairs shortest paths (Dijkstra, dense), and each node's component label. */
function pathLengths(
  nodes: readonly StressNode[],
  neighbours: Neighbours,
  edgeLength: StressOptions['edgeLength'],
) {
  const n = nodes.length;
  const dist = new Float64Array(n * n).fill(Infinity);
  const component = new Int32Array(n).fill(-1);
  const done = new Uint8Array(n);
  for (let src = 0; src < n; src++) {
    const base = src * n;
    dist[base + src] = 0;
    done.fill(0);
    const label = component[src] === -1 ? src : (component[src] ?? src);
    for (;;) {
      let u = -1;
      let best = Infinity;
      for (let i = 0; i < n; i++) {
        const d = dist[base + i] ?? Infinity;
        if (!done[i] && d < best) {
          best = d;
          u = i;
        }
      }
      if (u < 0) break;
      done[u] = 1;
      component[u] = label;
      const from = nodes[u];
      for (const { node: v, weight } of neighbours[u] ?? []) {
        const to = nodes[v];
        if (!from || !to) continue;
        const d = best + edgeLength(from, to, weight);
        if (d < (dist[base + v] ?? Infinity)) dist[base + v] = d;
      }
    }
  }
  return { dist, component };
}

/** Coordinates from the top two eigenvectors of the double-centred squared distances. */
function classicalMds(n: number, dist: Float64Array, random: () => number) {
  // Pairs in different components are put a little beyond the longest path; packing fixes up.
  let far = 0;
  for (const d of dist) if (d !== Infinity && d > far) far = d;
  far = far * 1.25 + 1;
  const b = new Float64Array(n * n);
  const rowMean = new Float64Array(n);
  for (let i = 0; i < n * n; i++) {
    const d = Math.min(dist[i] ?? far, far);
    b[i] = d * d;
    const row = Math.floor(i / n);
    rowMean[row] = (rowMean[row] ?? 0) + (d * d) / n;
  }
  const mean = rowMean.reduce((s, v) => s + v, 0) / n;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      b[i * n + j] = -0.5 * ((b[i * n + j] ?? 0) - (rowMean[i] ?? 0) - (rowMean[j] ?? 0) + mean);
    }
  }
  const times = (v: Float64Array, shift: number) => {
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      let sum = shift * (v[i] ?? 0);
      for (let j = 0; j < n; j++) sum += (b[i * n + j] ?? 0) * (v[j] ?? 0);
      out[i] = sum;
    }
    return out;
  };
  const dot = (u: Float64Array, v: Float64Array) => {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += (u[i] ?? 0) * (v[i] ?? 0);
    return sum;
  };
  // Power iteration, orthogonal to the axes already found.
  const power = (shift: number, found: readonly Float64Array[]) => {
    let v = Float64Array.from({ length: n }, () => random() - 0.5);
    for (let it = 0; it < MDS_ITERATIONS; it++) {
      const next = times(v, shift);
      for (const axis of found) {
        const along = dot(axis, next);
        for (let i = 0; i < n; i++) next[i] = (next[i] ?? 0) - along * (axis[i] ?? 0);
      }
      const norm = Math.sqrt(dot(next, next));
      if (norm < 1e-9) break;
      v = next.map((x) => x / norm);
    }
    return v;
  };
  // Graph distances are not Euclidean, so B can have negative eigenvalues larger in size than
  // the positive ones; shifted by the most negative, power iteration finds the largest positive.
  const first = power(0, []);
  const shift = Math.max(0, -dot(first, times(first, 0)));
  const axes: Float64Array[] = shift > 0 ? [] : [first];
  while (axes.length < 2) axes.push(power(shift, axes));
  const [xs, ys] = axes.map((u) => {
    const scale = Math.sqrt(Math.max(0, dot(u, times(u, 0))));
    return u.map((x) => x * scale);
  });
  return { xs: xs ?? new Float64Array(n), ys: ys ?? new Float64Array(n) };
}

/**
 * Places the free nodes at their MDS spots, turned, mirrored and moved (never scaled: MDS works
 * in pixels) so that the pinned nodes' own MDS spots come as close as they can to their pins.
 */
function placeByMds(nodes: readonly StressNode[], xs: Float64Array, ys: Float64Array): void {
  const pinned = nodes.filter((n) => n.pin);
  const from = { x: 0, y: 0 };
  const to = { x: 0, y: 0 };
  for (const p of pinned) {
    from.x += (xs[p.index] ?? 0) / pinned.length;
    from.y += (ys[p.index] ?? 0) / pinned.length;
    to.x += p.x / pinned.length;
    to.y += p.y / pinned.length;
  }
  // 2-D Procrustes: the best rotation of the centred MDS spots onto the centred pins, with and
  // without a mirror image; keep whichever fits better.
  const fit = (mirror: number) => {
    let dot = 0;
    let cross = 0;
    for (const p of pinned) {
      const mx = (xs[p.index] ?? 0) - from.x;
      const my = mirror * ((ys[p.index] ?? 0) - from.y);
      dot += mx * (p.x - to.x) + my * (p.y - to.y);
      cross += mx * (p.y - to.y) - my * (p.x - to.x);
    }
    return { mirror, angle: Math.atan2(cross, dot), score: Math.hypot(dot, cross) };
  };
  const plain = fit(1);
  const mirrored = fit(-1);
  const { mirror, angle } = mirrored.score > plain.score ? mirrored : plain;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  for (const node of nodes) {
    if (node.pin) continue;
    const mx = (xs[node.index] ?? 0) - from.x;
    const my = mirror * ((ys[node.index] ?? 0) - from.y);
    node.x = to.x + mx * cos - my * sin;
    node.y = to.y + mx * sin + my * cos;
  }
}

/** Moves whole components so they sit side by side; components with a pinned node stay put. */
function packComponents(nodes: readonly StressNode[], component: Int32Array): void {
  const groups = new Map<number, StressNode[]>();
  for (const node of nodes) {
    const c = component[node.index] ?? node.index;
    const group = groups.get(c);
    if (group) group.push(node);
    else groups.set(c, [node]);
  }
  if (groups.size < 2) return;
  const circles = [...groups.values()].map((members) => {
    const c = centroid(members);
    let r = 0;
    for (const m of members) r = Math.max(r, Math.hypot(m.x - c.x, m.y - c.y) + m.radius);
    return { members, x: c.x, y: c.y, r, fixed: members.some((m) => m.pin) };
  });
  circles.sort((a, b) => Number(b.fixed) - Number(a.fixed) || b.r - a.r);
  const placed = circles.filter((c) => c.fixed);
  const first = placed[0] ?? circles[0];
  if (!first) return;
  if (!placed.length) placed.push(first);
  const gap = COMPONENT_GAP;
  // A spiral around the first circle, walked outwards once for all components.
  let t = 0;
  for (const c of circles) {
    if (placed.includes(c)) continue;
    let x = first.x;
    let y = first.y;
    for (;;) {
      const along = t;
      const radius = first.r * 0.5 + gap * Math.sqrt(along) * 2;
      const angle = Math.sqrt(along) * 2;
      x = first.x + radius * Math.cos(angle);
      y = first.y + radius * Math.sin(angle);
      if (placed.every((p) => Math.hypot(p.x - x, p.y - y) >= p.r + c.r + gap)) break;
      t++;
    }
    for (const m of c.members) {
      m.x += x - c.x;
      m.y += y - c.y;
    }
    placed.push({ ...c, x, y });
  }
}
