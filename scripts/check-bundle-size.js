// @ts-check
// Fails when the JavaScript of the initial page (before lazy editor/graph code) passes the budget.
import { existsSync } from 'node:fs';
import { measureBuild } from './bundleSize.js';

const BUDGET_BYTES = 200 * 1024;

if (!existsSync('dist/.vite/manifest.json')) {
  console.error('No production build found: run "npm run build" first.');
  process.exit(1);
}
const { initialFiles, initialJsGzipBytes } = measureBuild('dist');
const kb = (/** @type {number} */ n) => `${(n / 1024).toFixed(1)} KB`;
const verdict = initialJsGzipBytes <= BUDGET_BYTES ? 'within' : 'OVER';
console.log(
  `Initial page JavaScript: ${kb(initialJsGzipBytes)} gzipped (${verdict} the ${kb(BUDGET_BYTES)} budget) in ${initialFiles.join(', ')}`,
);
if (initialJsGzipBytes > BUDGET_BYTES) process.exit(1);
