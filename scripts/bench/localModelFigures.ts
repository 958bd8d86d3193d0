// Benchmark figures for the in-browser model engine: a 25M-parameter random GGUF (F16) written by
// writeTinyGguf, loaded through the real adapter (createLocalModelHost, bundled with esbuild) in
// headless Chromium on the CPU, from a cross-origin-isolated page (so wllama may use threads).
// Five streamed, greedy chats of 64 tokens after a warm-up; each run's time to first token is
// taken from the call to the first streamed piece, its decode speed from the tokens after the
// first over the time from the first piece to the last. Medians.
import { readFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import type { Browser, Page } from '@playwright/test';
import { build } from 'esbuild';
import type { LocalModelHost } from '../../src/adapters/models/local/types.ts';
import { SMALL_GGUF, writeTinyGguf } from '../../src/core/testing/gguf.ts';
import type { ServedFile } from '../../src/test/servers/modelFileServer.ts';
import { startModelFileServer } from '../../src/test/servers/modelFileServer.ts';

const RUNS = 5;
const TOKENS = 64;
const WASM = 'node_modules/@wllama/wllama/esm/wasm/wllama.wasm';

/**
 * The adapter as the page sees it: `window.createHost(options)` builds a LocalModelHost, and
 * `window.createWllama(wasmUrl)` is its default engine factory (for checks that wrap it).
 */
const ENTRY = `
import { createLocalModelHost } from './src/adapters/models/local/localEngine.ts';
import { createWllama } from './src/adapters/models/local/wllama.ts';
window.createWllama = createWllama;
window.createHost = (options = {}) =>
  createLocalModelHost({ wasmUrl: new URL('/wllama.wasm', location.href).href, ...options });
`;

/** A page serving the bundled adapter, wllama's wasm and the given files, and a browser on it. */
export interface LocalModelPage {
  readonly page: Page;
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Bundles the adapter, serves it with COOP/COEP (plus `files`, e.g. models), and opens it in
 * headless Chromium. `close` shuts the browser and the server.
 */
export async function openLocalModelPage(
  files: Readonly<Record<string, ServedFile>> = {},
  serverOptions: { bytesPerSecond?: number } = {},
  browserArgs: readonly string[] = [],
): Promise<LocalModelPage> {
  const bundle = await build({
    stdin: { contents: ENTRY, resolveDir: process.cwd(), loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'error',
  });
  const server = await startModelFileServer(
    {
      // tsx compiles the callbacks handed to page.evaluate with esbuild's keepNames, which
      // calls a __name helper that only exists in Node: the page gets a stand-in.
      'index.html':
        '<!doctype html><meta charset="utf-8"><script>window.__name = (f) => f;</script>' +
        '<script type="module" src="/app.js"></script>',
      'app.js': bundle.outputFiles[0]?.contents ?? '',
      'wllama.wasm': readFileSync(WASM),
      ...files,
    },
    {
      ...serverOptions,
      headers: {
        'Cross-Origin-Opener-Policy': 'same-origin',
        'Cross-Origin-Embedder-Policy': 'require-corp',
      },
    },
  );
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', ...browserArgs],
    });
    const page = await browser.newPage();
    await page.goto(`${server.url}/index.html`);
    await page.waitForFunction(() => 'createHost' in globalThis);
    const opened = browser;
    return {
      page,
      url: server.url,
      close: async () => {
        await opened.close();
        await server.close();
      },
    };
  } catch (error) {
    await browser?.close();
    await server.close();
    throw error;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.floor(sorted.length / 2)] ?? Number.NaN) * 10) / 10;
}

/** Decode speed (tokens per second) and time to first token (ms) of the local engine on the CPU. */
export async function localModelFigures(): Promise<{
  local_decode_tok_s: number;
  local_ttft_ms: number;
}> {
  const opened = await openLocalModelPage({ 'small.gguf': writeTinyGguf(SMALL_GGUF) });
  try {
    const runs = await opened.page.evaluate(
      async ({ runs, tokens }) => {
        const host = (globalThis as unknown as { createHost: () => LocalModelHost }).createHost();
        const file = await (await fetch('/small.gguf')).blob();
        await host.load({ file, name: 'small.gguf' }, { contextSize: 1024 });
        const results: { ttft: number; decode: number; tokens: number }[] = [];
        for (let i = 0; i <= runs; i++) {
          const stamps: number[] = [];
          const started = performance.now();
          const answer = await host.engine.chat(
            {
              model: 'small',
              messages: [
                { role: 'system', content: 'You are a helpful booking assistant.' },
                { role: 'user', content: `Run ${i}: can I change the date of my flight?` },
              ],
              maxTokens: tokens,
              temperature: 0,
            },
            { onDelta: () => stamps.push(performance.now()) },
          );
          const first = stamps[0] ?? Number.NaN;
          const last = stamps.at(-1) ?? Number.NaN;
          const produced = answer.usage.outputTokens;
          // Run 0 warms the engine up (first allocation, prompt cache) and is not counted.
          if (i > 0 && produced > 8) {
            results.push({
              ttft: first - started,
              decode: ((produced - 1) * 1000) / (last - first),
              tokens: produced,
            });
          }
        }
        await host.unload();
        return results;
      },
      { runs: RUNS, tokens: TOKENS },
    );
    if (runs.length === 0) throw new Error('No run produced enough tokens to measure.');
    return {
      local_decode_tok_s: median(runs.map((r) => r.decode)),
      local_ttft_ms: median(runs.map((r) => r.ttft)),
    };
  } finally {
    await opened.close();
  }
}
