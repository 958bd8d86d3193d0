import { downloadFile, fileStem as stem } from '../../ui/download.ts';
import { svgToPng } from '../../ui/picture.ts';
import type { PolicyGraph, Point } from '../../core/index.ts';
import { graphToSvg } from '../../core/index.ts';

interface PictureOptions {
  readonly theme: 'light' | 'dark';
  readonly title: string;
}

/** Downloads the graph as a standalone SVG file. */
export function exportSvg(
  graph: PolicyGraph,
  positions: ReadonlyMap<string, Point>,
  options: PictureOptions,
) {
  const svg = graphToSvg(graph, positions, { ...options, showLabels: true });
  downloadFile(svg, `${graphStem(options.title)}.svg`, 'image/svg+xml');
}

/** Downloads the graph as a PNG, drawn from the same SVG at twice its size for sharp text. */
export async function exportPng(
  graph: PolicyGraph,
  positions: ReadonlyMap<string, Point>,
  options: PictureOptions,
) {
  const svg = graphToSvg(graph, positions, { ...options, showLabels: true });
  downloadFile(await svgToPng(svg), `${graphStem(options.title)}.png`, 'image/png');
}

/** The stem of the graph's file names: the project's name, then "-graph". */
function graphStem(title: string): string {
  return `${stem(title, 'policies')}-graph`;
}
