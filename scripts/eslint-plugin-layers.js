// @ts-check
import path from 'node:path';

/**
 * What each folder of src/ may import (DESIGN.md, "Layers"). Imports are resolved to real paths,
 * so a relative path that climbs into another layer is caught however it is spelled.
 * @type {Record<string, readonly string[]>}
 */
export const ALLOWED_IMPORTS = {
  core: ['core'],
  adapters: ['adapters', 'core'],
  workers: ['workers', 'adapters', 'core'],
  state: ['state', 'workers', 'adapters', 'core'],
  ui: ['ui', 'core'],
  // Features reach adapters and workers only through the store.
  features: ['features', 'ui', 'state', 'core'],
  app: ['app', 'features', 'ui', 'state', 'workers', 'adapters', 'core'],
  // The CLI runs simulations in a thread through the page's worker client.
  cli: ['cli', 'workers', 'adapters', 'core'],
  // Test helpers build stores and render components: they may reach every layer.
  test: ['test', 'app', 'features', 'ui', 'state', 'workers', 'adapters', 'core'],
};

/** Test files may also import the shared helpers of src/test. */
const TEST_FILE = /\.test\.tsx?$/;

/** @param {string} srcDir @param {string} file */
function layerOf(srcDir, file) {
  const rel = path.relative(srcDir, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep)[0];
}

/** @type {import('eslint').Rule.RuleModule} */
const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Keep imports pointing down the layers of DESIGN.md.' },
    schema: [],
    messages: {
      forbidden:
        'src/{{from}} may not import src/{{to}}. Allowed here: {{allowed}} (see DESIGN.md, "Layers").',
    },
  },
  create(context) {
    const srcDir = path.join(context.cwd, 'src');
    const from = layerOf(srcDir, context.filename);
    const allowed = from === undefined ? undefined : ALLOWED_IMPORTS[from];
    if (from === undefined || allowed === undefined) return {};

    /** @param {import('estree').Node | null | undefined} source */
    function check(source) {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      if (!source.value.startsWith('.')) return;
      const to = layerOf(srcDir, path.resolve(path.dirname(context.filename), source.value));
      if (to === undefined || allowed?.includes(to)) return;
      if (to === 'test' && TEST_FILE.test(context.filename)) return;
      context.report({
        node: source,
        messageId: 'forbidden',
        data: { from, to, allowed: allowed?.map((l) => `src/${l}`).join(', ') ?? '' },
      });
    }

    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

/** A local ESLint plugin with the one rule that enforces the import direction between layers. */
export default { rules: { layers: layersRule } };
