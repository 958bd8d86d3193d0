import { downloadFile, fileStem as stem } from '../../ui/download.ts';
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
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const scale = 2;
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(image.naturalWidth * scale));
    canvas.height = Math.max(1, Math.round(image.naturalHeight * scale));
    const context = canvas.getContext('2d');
    if (!context) throw new Error('This browser cannot draw a picture here.');
    context.scale(scale, scale);
    context.drawImage(image, 0, 0);
    const blob = await new Promise<Blob | null>((resolve) => {
      canvas.toBlob(resolve, 'image/png');
    });
    if (!blob) throw new Error('The picture could not be encoded as PNG.');
    downloadFile(blob, `${graphStem(options.title)}.png`, 'image/png');
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** The stem of the graph's file names: the project's name, then "-graph". */
function graphStem(title: string): string {
  return `${stem(title, 'policies')}-graph`;
}
