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
  download(new Blob([svg], { type: 'image/svg+xml' }), `${fileStem(options.title)}.svg`);
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
    download(blob, `${fileStem(options.title)}.png`);
  } finally {
    URL.revokeObjectURL(url);
  }
}

function fileStem(title: string): string {
  const stem = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${stem || 'policies'}-graph`;
}

function download(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 1_000);
}
