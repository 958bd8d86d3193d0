import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'vite';
import { build } from 'vite';

/** Where the app serves the viewer; `src/adapters/viewerTemplate.ts` fetches the same name. */
export const VIEWER_FILE = 'policylab-viewer.html';

/**
 * Builds the standalone viewer (`vite.viewer.config.ts`, one HTML file) alongside the app and
 * serves it beside the app as `policylab-viewer.html`, so one `vite build` makes both and the
 * app never fetches a viewer older than itself. The app's own pages are left as they were: the
 * viewer is fetched only when a run is saved as a standalone page.
 */
export function standaloneViewer(): Plugin {
  let root = process.cwd();
  const buildViewer = async (): Promise<string> => {
    await build({
      root,
      configFile: path.join(root, 'vite.viewer.config.ts'),
      logLevel: 'warn',
    });
    return readFile(path.join(root, 'dist-viewer', 'viewer.html'), 'utf8');
  };
  let page: Promise<string> | undefined;
  return {
    name: 'policylab:standalone-viewer',
    configResolved(config) {
      root = config.root;
    },
    buildStart() {
      // In parallel with the app's own build.
      if (this.environment.config.consumer === 'client') page = buildViewer();
    },
    async generateBundle() {
      if (!page) return;
      this.emitFile({ type: 'asset', fileName: VIEWER_FILE, source: await page });
    },
    configureServer(server) {
      // The dev server builds it afresh on each request, so it follows the code being edited.
      server.middlewares.use(`/${VIEWER_FILE}`, (_request, response, next) => {
        buildViewer().then(
          (html) => {
            response.setHeader('Content-Type', 'text/html; charset=utf-8');
            response.end(html);
          },
          (error: unknown) => {
            next(error);
          },
        );
      });
    },
  };
}
