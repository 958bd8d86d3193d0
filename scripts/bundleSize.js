// @ts-check
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** @typedef {{ file: string, isEntry?: boolean, imports?: string[], dynamicImports?: string[], css?: string[] }} ManifestChunk */

/**
 * The chunks the browser loads before any lazy import runs: the HTML entry and, transitively,
 * every chunk it imports statically. Dynamic imports (the editor, the graph) are left out.
 * @param {Record<string, ManifestChunk>} manifest Vite's `.vite/manifest.json`
 * @returns {string[]} output file names, entry first
 */
export function initialChunkFiles(manifest) {
  return staticClosure(
    manifest,
    Object.keys(manifest).filter((key) => manifest[key]?.isEntry),
  );
}

/**
 * The output files of the given chunks and of every chunk they import statically.
 * @param {Record<string, ManifestChunk>} manifest
 * @param {string[]} keys manifest keys to start from
 */
export function staticClosure(manifest, keys) {
  /** @type {string[]} */
  const files = [];
  const seen = new Set();
  const visit = (/** @type {string} */ key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The manifest names a chunk it does not hold: ${key}`);
    files.push(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return files;
}

/** Gzipped size in bytes, at the level servers and Vite's report use by default. */
export function gzipSize(/** @type {Buffer} */ bytes) {
  return gzipSync(bytes, { level: 9 }).length;
}

/**
 * Measures a production build in `distDir`: the initial JavaScript and named lazy chunks.
 * @param {string} distDir
 * @param {Record<string, string>} lazySources label → source path of a lazily imported module;
 *   its figure counts the chunk and the static imports it adds to the initial page
 */
export function measureBuild(distDir, lazySources = {}) {
  /** @type {Record<string, ManifestChunk>} */
  const manifest = JSON.parse(readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8'));
  const size = (/** @type {string} */ file) => gzipSize(readFileSync(path.join(distDir, file)));
  const initial = initialChunkFiles(manifest).filter((f) => f.endsWith('.js'));
  /** @type {Record<string, number>} */
  const lazy = {};
  /** @type {Record<string, string[]>} */
  const lazyFiles = {};
  for (const [label, source] of Object.entries(lazySources)) {
    if (!manifest[source]) throw new Error(`${source} is not a chunk of the build.`);
    // What showing that pane downloads: its chunk and static imports not already loaded.
    const extra = staticClosure(manifest, [source]).filter((f) => !initial.includes(f));
    lazy[label] = extra.reduce((sum, file) => sum + size(file), 0);
    lazyFiles[label] = extra;
  }
  return {
    initialFiles: initial,
    initialJsGzipBytes: initial.reduce((sum, file) => sum + size(file), 0),
    lazyGzipBytes: lazy,
    lazyFiles,
  };
}

/**
 * Monaco's language workers (TypeScript, CSS, HTML, JSON) among a build's files. PolicyLab edits
 * Markdown and YAML only, so one of them in the output means that something imports Monaco whole
 * again (`monaco-editor/editor/editor.main`, or the package's root).
 * @param {string[]} files output file names, with or without their folder
 * @returns {string[]} the ones that are language workers
 */
export function languageWorkers(files) {
  return files.filter((file) => /(^|\/)(ts|css|html|json)\.worker[-.][^/]*$/.test(file));
}

/**
 * The parts of Monaco that stubs leave out (src/features/author/monaco/stubs/, applied by
 * scripts/vite/monacoStubs.js), as each stub's error names them: every "Monaco's …" string in
 * their source.
 * @param {string[]} stubSources the text of each stub file
 * @returns {string[]}
 */
export function stubParts(stubSources) {
  return stubSources.flatMap((source) =>
    [...source.matchAll(/"(Monaco's [^"]+)"/g)].map((match) => match[1] ?? ''),
  );
}

/**
 * The parts whose stub is missing from the given code: each stub's error names its part, so a
 * part not named there means the stub was not applied and Monaco's own module is back.
 * @param {string[]} parts what stubStrings found
 * @param {string} code the text of the chunks that should hold the stubs
 * @returns {string[]} the parts whose stub is not in the code
 */
export function missingStubs(parts, code) {
  return parts.filter((part) => !code.includes(part));
}

/**
 * Every file of a build, its path relative to `distDir`.
 * @param {string} distDir
 * @returns {string[]}
 */
export function buildFiles(distDir) {
  return readdirSync(distDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(distDir, path.join(entry.parentPath, entry.name)));
}

/**
 * Libraries the first page must not download: each is needed only once a pane, a worker or a
 * provider is used. Each is known in the built code by a string of its own source.
 */
export const LATER_LIBRARIES = /** @type {const} */ ([
  { name: 'ajv (schema validation)', marker: 'strictSchema' },
  { name: '@xyflow/react (the graph)', marker: 'react-flow__' },
  { name: 'yaml (the format parser)', marker: 'YAMLParseError' },
  { name: 'dexie (run storage)', marker: 'DexieError' },
  { name: "Anthropic's SDK", marker: 'anthropic-version' },
]);

/**
 * The libraries of `libraries` whose marker is in the given code.
 * @param {readonly { name: string, marker: string }[]} libraries
 * @param {string} code the text of the first page's chunks
 * @returns {string[]} their names
 */
export function librariesIn(libraries, code) {
  return libraries.filter((library) => code.includes(library.marker)).map((l) => l.name);
}
