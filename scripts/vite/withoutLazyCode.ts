import type { Plugin } from 'vite';

const LEFT_OUT = '\0left-out:';

/**
 * Leaves out everything the app loads lazily (`import()`): the editor, the graph, the simulation,
 * model engines, storage. A page that is one file cannot load a chunk, and a read-only page
 * needs none of them; each becomes a module that fails with a message if anything asks for it.
 */
export function withoutLazyCode(): Plugin {
  return {
    name: 'policylab:without-lazy-code',
    enforce: 'pre',
    resolveId(source, importer, options) {
      if ((options as { kind?: string }).kind !== 'dynamic-import') return null;
      return `${LEFT_OUT}${source} (from ${importer ?? 'the page'})`;
    },
    load(id) {
      if (!id.startsWith(LEFT_OUT)) return null;
      const what = id.slice(LEFT_OUT.length);
      return `throw new Error(${JSON.stringify(`${what} is not part of this page.`)});`;
    },
  };
}
