import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';
import { build } from 'vite';

/** Where the app serves the viewer; `src/adapters/viewerTemplate.ts` fetches the same name. */
export const VIEWER_FILE = 'policylab-viewer.html';

/** Builds the standalone viewer in memory (`vite.viewer.config.ts`) and gives its one page. */
async function buildViewer(root: string): Promise<string> {
  const result = await build({
    root,
    configFile: path.join(root, 'vite.viewer.config.ts'),
    logLevel: 'warn',
    build: { write: false },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const page = outputs
    .flatMap((o) => o.output)
    .find((file) => file.type === 'asset' && file.fileName.endsWith('.html'));
  if (page?.type !== 'asset') throw new Error('The standalone viewer build made no page.');
  return String(page.source);
}

/**
 * Builds the standalone viewer (`vite.viewer.config.ts`, one HTML file) alongside the app and
 * serves it beside the app as `policylab-viewer.html`, so one `vite build` makes both and the
 * app never fetches a viewer older than itself. The app's own pages are left as they were: the
 * viewer is fetched only when a run is saved as a standalone page.
 */
export function standaloneViewer(): Plugin {
  let root = process.cwd();
  let building = false;
  let page: Promise<string> | undefined;
  return {
    name: 'policylab:standalone-viewer',
    configResolved(config) {
      root = config.root;
      building = config.command === 'build';
    },
    buildStart() {
      if (!building || this.environment.config.consumer !== 'client') return;
      // In parallel with the app's own build; a failure fails the build when it is awaited below.
      page = buildViewer(root);
      page.catch(() => undefined);
    },
    async generateBundle() {
      if (!page) return;
      this.emitFile({ type: 'asset', fileName: VIEWER_FILE, source: await page });
    },
    configureServer(server) {
      // The dev server builds it afresh on each request, so it follows the code being edited.
      server.middlewares.use(`/${VIEWER_FILE}`, (_request, response, next) => {
        buildViewer(root).then(
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
