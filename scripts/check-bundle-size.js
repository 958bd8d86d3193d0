// @ts-check
// Fails when the JavaScript of the initial page (before lazy editor/graph code) passes its budget,
// when a library only a pane, a worker or a provider needs is on that first page (LATER_LIBRARIES),
// when the editor's download (Monaco and what it brings) passes its own, when the build holds one
// of Monaco's language workers, which only Monaco imported whole brings, or when a part of Monaco
// that a stub in src/features/author/monaco/stubs/ leaves out is back (its alias in
// scripts/vite/monacoStubs.js gone or broken).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import {
  LATER_LIBRARIES,
  buildFiles,
  languageWorkers,
  librariesIn,
  measureBuild,
  missingStubs,
  stubParts,
} from './bundleSize.js';

const STUBS = 'src/features/author/monaco/stubs';

const BUDGET_BYTES = 200 * 1024;
// Monaco's core, less the parts scripts/vite/monacoStubs.js leaves out, is about 570 KB of it and
// PolicyLab's own code about 10 KB; the rest is the contributions
// src/features/author/monaco/setup.ts imports. editor.main would be ~1,100 KB.
const EDITOR_BUDGET_BYTES = 800 * 1024;
const EDITOR_SOURCE = 'src/features/author/MonacoEditor.tsx';

if (!existsSync('dist/.vite/manifest.json')) {
  console.error('No production build found: run "npm run build" first.');
  process.exit(1);
}
const { initialFiles, initialJsGzipBytes, lazyGzipBytes, lazyFiles } = measureBuild('dist', {
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

const early = librariesIn(
  LATER_LIBRARIES,
  initialFiles.map((file) => readFileSync(`dist/${file}`, 'utf8')).join('\n'),
);
if (early.length > 0) {
  console.log(
    `On the first page, though only a pane or a worker needs them: ${early.join(', ')}. Something the first page imports statically reaches them; import it lazily or move what it needs into a module of its own.`,
  );
  failed = true;
}

const editorBytes = lazyGzipBytes.editor ?? 0;
console.log(
  `Editor (${EDITOR_SOURCE} and what it loads with it): ${kb(editorBytes)} gzipped (${verdict(editorBytes, EDITOR_BUDGET_BYTES)})`,
);
if (editorBytes > EDITOR_BUDGET_BYTES) failed = true;

const editorCode = (lazyFiles.editor ?? [])
  .map((file) => readFileSync(`dist/${file}`, 'utf8'))
  .join('\n');
const parts = stubParts(
  readdirSync(STUBS)
    .filter((file) => file.endsWith('.ts') && !/\.(d|test)\.ts$/.test(file))
    .map((file) => readFileSync(`${STUBS}/${file}`, 'utf8')),
);
const back = missingStubs(parts, editorCode);
if (back.length > 0) {
  console.log(
    `Parts of Monaco that PolicyLab leaves out are back in the editor's download, their stubs not applied: ${back.join('; ')}. See scripts/vite/monacoStubs.js.`,
  );
  failed = true;
}

const workers = languageWorkers(buildFiles('dist'));
if (workers.length > 0) {
  console.log(
    `Monaco's language workers are in the build (${workers.join(', ')}): PolicyLab edits only Markdown and YAML; import the parts of Monaco it uses (src/features/author/monaco/setup.ts), not 'monaco-editor/editor/editor.main'.`,
  );
  failed = true;
}
if (failed) process.exit(1);
