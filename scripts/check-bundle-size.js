// @ts-check
// Fails when the JavaScript of the initial page (before lazy editor/graph code) passes its budget,
// when the editor's download (Monaco and what it brings) passes its own, or when the build holds
// one of Monaco's language workers, which only Monaco imported whole brings.
import { existsSync } from 'node:fs';
import { buildFiles, languageWorkers, measureBuild } from './bundleSize.js';

const BUDGET_BYTES = 200 * 1024;
// Monaco's core alone is about 675 KB of it, PolicyLab's YAML and CEL code about 60 KB; the rest is
// the contributions src/features/author/monaco/setup.ts imports. editor.main would be ~1,100 KB.
const EDITOR_BUDGET_BYTES = 920 * 1024;
const EDITOR_SOURCE = 'src/features/author/MonacoEditor.tsx';

if (!existsSync('dist/.vite/manifest.json')) {
  console.error('No production build found: run "npm run build" first.');
  process.exit(1);
}
const { initialFiles, initialJsGzipBytes, lazyGzipBytes } = measureBuild('dist', {
  editor: EDITOR_SOURCE,
});
const kb = (/** @type {number} */ n) => `${(n / 1024).toFixed(1)} KB`;
const verdict = (/** @type {number} */ bytes, /** @type {number} */ budget) =>
  `${bytes <= budget ? 'within' : 'OVER'} the ${kb(budget)} budget`;
let failed = false;

console.log(
  `Initial page JavaScript: ${kb(initialJsGzipBytes)} gzipped (${verdict(initialJsGzipBytes, BUDGET_BYTES)}) in ${initialFiles.join(', ')}`,
);
if (initialJsGzipBytes > BUDGET_BYTES) failed = true;

const editorBytes = lazyGzipBytes.editor ?? 0;
console.log(
  `Editor (${EDITOR_SOURCE} and what it loads with it): ${kb(editorBytes)} gzipped (${verdict(editorBytes, EDITOR_BUDGET_BYTES)})`,
);
if (editorBytes > EDITOR_BUDGET_BYTES) failed = true;

const workers = languageWorkers(buildFiles('dist'));
if (workers.length > 0) {
  console.log(
    `Monaco's language workers are in the build (${workers.join(', ')}): PolicyLab edits only Markdown and YAML; import the parts of Monaco it uses (src/features/author/monaco/setup.ts), not 'monaco-editor/editor/editor.main'.`,
  );
  failed = true;
}
if (failed) process.exit(1);
