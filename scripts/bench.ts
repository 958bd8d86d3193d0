// Prints one JSON object of named benchmark figures (medians unless the name says otherwise).
// Run with `npm run bench`; it builds the app first when there is no build.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { chromium } from '@playwright/test';
import { analyzeProject, toBundle } from '../src/core/index.ts';
import type { Project } from '../src/core/index.ts';
import { generateProject } from '../src/core/testing/generateProject.ts';
import { budgetFigures } from './bench/budgetFigures.ts';
import { checkFigures } from './bench/checkFigures.ts';
import { editorFigures } from './bench/editorFigures.ts';
import { compareFigures } from './bench/compareFigures.ts';
import { graphFigures } from './bench/graphFigures.ts';
import { importFigures } from './bench/importFigures.ts';
import { RECORD_FRAMES, STOP_RECORDING } from './bench/frames.ts';
import { layoutFigures } from './bench/layoutFigures.ts';
import { relateFigures } from './bench/relateFigures.ts';
import { localModelFigures } from './bench/localModelFigures.ts';
import { remoteFigures } from './bench/remoteFigures.ts';
import { replayFigures } from './bench/replayFigures.ts';
import { shareFigures } from './bench/shareFigures.ts';
import { simFigures } from './bench/simFigures.ts';
import { median, percentile, round } from './bench/stats.ts';
import { measureBuild } from './bundleSize.js';

const SIZE = { policies: 1000, tools: 100, rules: 2000 };
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PORT = 4391;

/** The same project with every file's text changed, so no cached parse can be reused. */
function touched(project: Project, run: number, only?: keyof Project['files']): Project {
  const files = Object.fromEntries(
    Object.entries(project.files).map(([name, text]) =>
      only === undefined || name === only ? [name, `${text}# run ${run}\n`] : [name, text],
    ),
  ) as Project['files'];
  return { ...project, files };
}

function parseLintFigures(project: Project) {
  analyzeProject(touched(project, -1));
  const cold: number[] = [];
  const edit: number[] = [];
  for (let run = 0; run < 11; run++) {
    let start = performance.now();
    analyzeProject(touched(project, run));
    cold.push(performance.now() - start);
    start = performance.now();
    analyzeProject(touched(project, run, 'rules.yaml'));
    edit.push(performance.now() - start);
  }
  return { parse_lint_ms_1000: median(cold), parse_lint_edit_ms_1000: median(edit) };
}

async function browserFigures(project: Project, graphProject: Project) {
  mkdirSync('dist/bench', { recursive: true });
  writeFileSync('dist/bench/generated-1000.policylab.json', toBundle(project));
  writeFileSync('dist/bench/generated-graph.policylab.json', toBundle(graphProject));
  const server = spawn(
    'npx',
    ['vite', 'preview', '--host', '127.0.0.1', '--port', String(PORT), '--strictPort'],
    {
      stdio: 'ignore',
      detached: true,
    },
  );
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    for (let i = 0; i < 50; i++) {
      const up = await page
        .goto(`http://127.0.0.1:${PORT}/?bundle=/bench/generated-1000.policylab.json`)
        .catch(() => null);
      if (up) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await page.locator('[data-testid="monaco-host"] > .monaco-editor').waitFor({ timeout: 60_000 });
    await page.getByRole('tab', { name: /^rules\.yaml/ }).click();
    await page
      .getByRole('region', { name: 'Problems' })
      .getByText('No problems in this project.')
      .waitFor({ timeout: 60_000 });
    await page.locator('[data-testid="monaco-host"] > .monaco-editor').click();
    await page.keyboard.press('Control+End');
    await page.evaluate(RECORD_FRAMES);
    // A brisk typist: a comment line at about 25 characters a second, then a pause for analysis.
    await page.keyboard.type('# a comment typed while the whole project is checked again', {
      delay: 40,
    });
    await page.waitForTimeout(1500);
    const { frameGaps, longTasks } = await page.evaluate<{
      frameGaps: number[];
      longTasks: number[];
    }>(STOP_RECORDING);
    const typing = {
      typing_block_ms_p95: percentile(frameGaps, 95),
      typing_longest_block_ms: round(Math.max(0, ...frameGaps)),
      typing_long_tasks: longTasks.length,
    };
    return { ...typing, ...(await panFigures(page)) };
  } finally {
    await browser.close();
    if (server.pid !== undefined) process.kill(-server.pid);
  }
}

/**
 * Frames while panning and zooming the full graph of 1,000 policies and 10,000 relations, with
 * the Graph pane maximized and the layout finished.
 */
async function panFigures(page: Page) {
  await page.goto(`http://127.0.0.1:${PORT}/?bundle=/bench/generated-graph.policylab.json`);
  const pane = page.locator('section[data-pane="graph"]');
  await pane.getByRole('button', { name: 'Maximize Graph' }).click();
  await pane.getByText(/^1,000 policies/).waitFor({ timeout: 120_000 });
  await pane.getByRole('button', { name: 'Lay out again' }).waitFor({ timeout: 120_000 });
  const box = await pane.locator('.react-flow__pane').boundingBox();
  if (!box) throw new Error('The graph canvas is not on screen.');
  // Grab the canvas in its top-right corner, clear of the graph (fitted to the middle), the
  // legend (top left) and the minimap (bottom right): a drag there pans instead of moving a node.
  const x = box.x + box.width - 260;
  const y = box.y + 30;
  await page.mouse.move(x, y);
  await page.evaluate(RECORD_FRAMES);
  for (let round = 0; round < 4; round++) {
    const sign = round % 2 === 0 ? -1 : 1;
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let step = 1; step <= 15; step++) {
      await page.mouse.move(x + sign * step * 10, y + (round % 2 === 0 ? step * 6 : 90 - step * 6));
    }
    await page.mouse.up();
    for (let step = 0; step < 4; step++) await page.mouse.wheel(0, sign * 100);
  }
  await page.waitForTimeout(300);
  const { frameGaps, longTasks } = await page.evaluate<{
    frameGaps: number[];
    longTasks: number[];
  }>(STOP_RECORDING);
  const moved = await pane.locator('.policy-node[title*="placed by hand"]').count();
  if (moved > 0)
    throw new Error(`The pan benchmark dragged ${moved} node(s) instead of the canvas.`);
  return {
    pan_frame_ms_p95: percentile(frameGaps, 95),
    pan_longest_frame_ms: round(Math.max(0, ...frameGaps)),
    pan_long_tasks: longTasks.length,
  };
}

if (!existsSync('dist/.vite/manifest.json')) {
  execFileSync('npx', ['vite', 'build', '--logLevel', 'error'], { stdio: 'inherit' });
}
const build = measureBuild('dist', {
  editor: 'src/features/author/MonacoEditor.tsx',
  graph: 'src/features/graph/GraphCanvas.tsx',
});
const project = generateProject(SIZE);
const graphProject = generateProject({ ...SIZE, relations: 10_000 });

console.log(
  JSON.stringify(
    {
      initial_js_gzip_kb: round(build.initialJsGzipBytes / 1024),
      editor_chunk_gzip_kb: round((build.lazyGzipBytes.editor ?? 0) / 1024),
      graph_chunk_gzip_kb: round((build.lazyGzipBytes.graph ?? 0) / 1024),
      ...parseLintFigures(project),
      ...checkFigures(),
      ...budgetFigures(),
      ...graphFigures(),
      ...(await relateFigures()),
      ...compareFigures(),
      ...shareFigures(),
      ...importFigures(),
      ...(await editorFigures()),
      ...(await layoutFigures()),
      ...(await browserFigures(project, graphProject)),
      ...(await replayFigures()),
      ...(await localModelFigures()),
      ...(await remoteFigures()),
      ...(await simFigures()),
    },
    null,
    2,
  ),
);
