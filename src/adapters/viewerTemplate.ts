/**
 * The standalone viewer's page as the build emits it beside the app (`vite.viewer.config.ts`
 * makes it, `vite.config.ts` copies it in): one HTML file with its code and styles inlined.
 */
export const VIEWER_FILE = 'policylab-viewer.html';

/**
 * Fetches the viewer's page from the app's own files (never a CDN), on demand: the page that
 * writes a run into it never loads it before. Rejects with a message a person can act on.
 */
export function createViewerTemplate(
  baseUrl: string,
  fetchText: (url: string) => Promise<Response> = (url) => fetch(url, { cache: 'no-cache' }),
): () => Promise<string> {
  return async () => {
    let response: Response;
    try {
      response = await fetchText(`${baseUrl}${VIEWER_FILE}`);
    } catch {
      throw new Error('the viewer could not be downloaded. Check your connection.');
    }
    if (!response.ok)
      throw new Error(`the viewer is missing from this build (HTTP ${response.status}).`);
    return response.text();
  };
}
