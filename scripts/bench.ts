// Prints one JSON object of named figures. Later issues add graph, sampling and frame timings.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { measureBuild } from './bundleSize.js';

if (!existsSync('dist/.vite/manifest.json')) {
  execFileSync('npx', ['vite', 'build', '--logLevel', 'error'], { stdio: 'inherit' });
}
const build = measureBuild('dist', {
  editor: 'src/features/author/MonacoEditor.tsx',
  graph: 'src/features/graph/GraphCanvas.tsx',
});

console.log(
  JSON.stringify(
    {
      initial_js_gzip_kb: round(build.initialJsGzipBytes / 1024),
      editor_chunk_gzip_kb: round((build.lazyGzipBytes.editor ?? 0) / 1024),
      graph_chunk_gzip_kb: round((build.lazyGzipBytes.graph ?? 0) / 1024),
    },
    null,
    2,
  ),
);

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
