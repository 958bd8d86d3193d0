import type { ExampleInfo, ExampleLibrary } from '../core/index.ts';
import { PROJECT_FILES } from '../core/index.ts';

/** The example projects shipped in public/examples/. */
export const EXAMPLES: readonly ExampleInfo[] = [
  {
    id: 'airline',
    name: 'SkyWay Airlines support',
    summary:
      'A booking assistant: identity checks, changes, cancellations and refunds, baggage, compensation.',
  },
  {
    id: 'store',
    name: 'Northwind Outfitters orders',
    summary:
      'An online-store assistant: orders, returns, exchanges, shipping, payments, promotions.',
  },
];

/** Loads examples over HTTP from the app's own origin (never a CDN). */
export function createExampleLibrary(
  baseUrl: string,
  fetchText: (url: string) => Promise<Response> = (url) => fetch(url),
): ExampleLibrary {
  return {
    examples: EXAMPLES,
    async load(id) {
      if (!EXAMPLES.some((e) => e.id === id))
        throw new Error(`There is no example called "${id}".`);
      const entries = await Promise.all(
        PROJECT_FILES.map(async ({ name }) => {
          const url = `${baseUrl}examples/${id}/${name}`;
          let response: Response;
          try {
            response = await fetchText(url);
          } catch {
            throw new Error(
              `The example could not be downloaded (${name}). Check your connection.`,
            );
          }
          if (!response.ok)
            throw new Error(`The example's ${name} is missing (HTTP ${response.status}).`);
          return [name, await response.text()] as const;
        }),
      );
      return Object.fromEntries(entries);
    },
    async loadBundle(path) {
      // Only the app's own files: a path, never another site.
      if (!/^\/(?!\/)[\w./-]+\.json$/.test(path) || path.includes('..')) {
        throw new Error(
          `"${path}" is not a bundle this app serves; open bundle files from Projects instead.`,
        );
      }
      let response: Response;
      try {
        response = await fetchText(path);
      } catch {
        throw new Error('The project bundle could not be downloaded. Check your connection.');
      }
      if (!response.ok) throw new Error(`The project bundle is missing (HTTP ${response.status}).`);
      // A path the server does not have answers with the app's own page: say it is not there.
      if (response.headers.get('content-type')?.includes('text/html') === true)
        throw new Error(
          'There is no bundle at this address (the server answered with a web page).',
        );
      return response.text();
    },
  };
}
