import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { singleFile } from './scripts/vite/singleFile.ts';
import { withoutLazyCode } from './scripts/vite/withoutLazyCode.ts';

/**
 * The standalone viewer (`viewer.html`, `src/app/viewer.tsx`): one HTML file with its script and
 * styles inlined, which shows a run written into it by `standaloneRunHtml` from disk, offline.
 * Everything it imports goes in one script; what the app loads lazily (the editor, the graph, the
 * simulation, models) is left out, and no chunk, worker or asset may be left beside it.
 * `vite.config.ts` builds it first and serves it beside the app as `policylab-viewer.html`.
 */
export default defineConfig({
  plugins: [withoutLazyCode(), react(), singleFile()],
  base: './',
  publicDir: false,
  build: {
    target: 'es2023',
    outDir: 'dist-viewer',
    emptyOutDir: true,
    modulePreload: false,
    cssCodeSplit: false,
    assetsInlineLimit: Number.MAX_SAFE_INTEGER,
    reportCompressedSize: false,
    rolldownOptions: {
      input: 'viewer.html',
      output: { codeSplitting: false },
    },
  },
});
