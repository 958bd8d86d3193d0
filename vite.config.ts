import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { monacoStubs } from './scripts/vite/monacoStubs.js';
import { standaloneViewer } from './scripts/vite/standaloneViewer.ts';

/**
 * Cross-origin isolation lets the local model engine use threads (SharedArrayBuffer) later on.
 * Static hosts must send the same two headers; README.md says how.
 */
const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  // Parts of Monaco PolicyLab never uses are replaced by stubs that throw if reached; the standalone
  // viewer a run is saved into is built with the app and served beside it.
  plugins: [monacoStubs(), react(), standaloneViewer()],
  server: { headers: ISOLATION_HEADERS },
  preview: { headers: ISOLATION_HEADERS },
  worker: { format: 'es' },
  build: {
    target: 'es2023',
    // The manifest lets scripts/check-bundle-size.js and the e2e tests tell initial from lazy code.
    manifest: true,
    // Monaco is one large lazy chunk by design; the initial-page budget is checked separately.
    chunkSizeWarningLimit: 5000,
  },
});
