// @ts-check
// Parts of Monaco's core that 'monaco-editor/editor/editor.api' pulls in and PolicyLab never uses,
// each replaced at build time by a small stub in src/features/author/monaco/stubs/ that exports the
// same names and throws a clear error if it is ever reached. scripts/check-bundle-size.js checks
// that every stub is in the editor's download (a stub left out means Monaco's part is back).
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The monaco-editor version the stubs were checked against: each module, its exports, its users. */
export const MONACO_VERSION = '0.57.0';

/**
 * @typedef {object} MonacoStub
 * @property {string} module the replaced module, relative to monaco-editor/esm/vs/
 * @property {string} stub the stand-in, relative to the repository root
 * @property {string} part what is left out, as the stub's error names it (checked in the build)
 * @property {string} why why PolicyLab never reaches it
 */

/** @type {readonly MonacoStub[]} */
export const MONACO_STUBS = [
  {
    module: 'editor/browser/widget/diffEditor/diffEditorWidget.js',
    stub: 'src/features/author/monaco/stubs/diffEditorWidget.ts',
    part: "Monaco's diff editor",
    why: 'only monaco.editor.createDiffEditor makes one, and PolicyLab never calls it',
  },
  {
    module: 'editor/browser/widget/multiDiffEditor/multiDiffEditorWidget.js',
    stub: 'src/features/author/monaco/stubs/multiDiffEditorWidget.ts',
    part: "Monaco's multi-file diff editor",
    why: 'only monaco.editor.createMultiFileDiffEditor makes one, and PolicyLab never calls it',
  },
  {
    module: 'editor/browser/gpu/viewGpuContext.js',
    stub: 'src/features/author/monaco/stubs/viewGpuContext.ts',
    part: "Monaco's GPU rendering",
    why: "made only with experimentalGpuAcceleration: 'on', which MonacoEditor.tsx never sets",
  },
  {
    module: 'editor/browser/viewParts/viewLinesGpu/viewLinesGpu.js',
    stub: 'src/features/author/monaco/stubs/viewLinesGpu.ts',
    part: "Monaco's GPU-drawn lines",
    why: 'made only with a GPU context (above)',
  },
  {
    module: 'editor/common/model/tokens/treeSitter/treeSitterSyntaxTokenBackend.js',
    stub: 'src/features/author/monaco/stubs/treeSitterSyntaxTokenBackend.ts',
    part: "Monaco's tree-sitter colouring",
    why: "made only for a language with a tree-sitter grammar; the standalone editor's has none",
  },
  {
    module: 'editor/standalone/browser/quickInput/standaloneQuickInputService.js',
    stub: 'src/features/author/monaco/stubs/standaloneQuickInputService.ts',
    part: "Monaco's quick input (command palette and pickers)",
    why: 'the palette, go to line and go to symbol are not bundled; its other users have no key or menu',
  },
  {
    module: 'platform/actionWidget/browser/actionWidget.js',
    stub: 'src/features/author/monaco/stubs/actionWidget.ts',
    part: "Monaco's action menu (quick fixes, paste as)",
    why: 'its only users, the code action and paste-as controllers, are not registered contributions',
  },
];

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Replaces the modules of MONACO_STUBS with their stubs when Monaco imports them, and fails the
 * build when the installed monaco-editor is not MONACO_VERSION or a stub was never used (Monaco
 * no longer imports that module: take it off the list).
 * @returns {import('vite').Plugin}
 */
export function monacoStubs() {
  // The package's exports map hides package.json; its API module lies in esm/vs/editor/.
  const api = createRequire(import.meta.url).resolve('monaco-editor/editor/editor.api');
  const esm = path.dirname(path.dirname(realpathSync(api)));
  const packageJson = path.join(esm, '../../package.json');
  const stubFor = new Map(
    MONACO_STUBS.map((s) => [path.join(esm, s.module), path.join(ROOT, s.stub)]),
  );
  const names = MONACO_STUBS.map((s) => path.basename(s.module).replaceAll('.', '\\.'));
  /** @type {Set<string>} */
  const used = new Set();
  return {
    name: 'policylab:monaco-stubs',
    enforce: 'pre',
    buildStart() {
      used.clear();
      const { version } = JSON.parse(readFileSync(packageJson, 'utf8'));
      if (version !== MONACO_VERSION) {
        this.error(
          `monaco-editor is ${version}; scripts/vite/monacoStubs.js was checked against ${MONACO_VERSION}. Check each stub's module, exports and users, then update MONACO_VERSION.`,
        );
      }
    },
    resolveId: {
      filter: { id: new RegExp(`/(${names.join('|')})$`) },
      handler(source, importer) {
        if (!importer || !source.startsWith('.')) return null;
        const stub = stubFor.get(path.resolve(path.dirname(importer), source));
        if (stub) used.add(stub);
        return stub ?? null;
      },
    },
    buildEnd(error) {
      if (error) return;
      // A build without the editor (the standalone viewer) uses none of them.
      if (used.size === 0) return;
      const unused = MONACO_STUBS.filter((s) => !used.has(path.join(ROOT, s.stub)));
      if (unused.length > 0) {
        this.error(
          `Monaco no longer imports ${unused.map((s) => s.module).join(', ')}: take ${unused.length === 1 ? 'it' : 'them'} off scripts/vite/monacoStubs.js.`,
        );
      }
    },
  };
}
