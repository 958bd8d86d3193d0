#!/usr/bin/env node
// Runs npm scripts side by side and fails when any fails: `node scripts/parallel.js lint typecheck`.
// Each script's output is held and printed whole when it ends, so two never interleave; the last
// line names every script that failed. The static checks are single-threaded (ESLint ~120 s, tsc
// ~45 s, Prettier ~20 s on a 2-core machine, 184 s in a row); together they took 160 s.
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node scripts/parallel.js <npm script> [<npm script> …]');
  process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** @type {Promise<{ script: string, code: number }>[]} */
const runs = scripts.map(
  (script) =>
    new Promise((resolve) => {
      const started = Date.now();
      /** @type {Buffer[]} */
      const chunks = [];
      const child = spawn(npm, ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      child.stderr.on('data', (chunk) => chunks.push(chunk));
      /** @param {number} code */
      const finish = (code) => {
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        process.stdout.write(
          `\n> ${script} (${code === 0 ? 'ok' : `exit ${code}`}, ${seconds} s)\n`,
        );
        process.stdout.write(Buffer.concat(chunks));
        resolve({ script, code });
      };
      child.on('error', (error) => {
        chunks.push(Buffer.from(`${error.message}\n`));
        finish(1);
      });
      child.on('close', (code, signal) => finish(code ?? (signal ? 1 : 0)));
    }),
);

const results = await Promise.all(runs);
const failed = results.filter((r) => r.code !== 0).map((r) => r.script);
if (failed.length > 0) {
  console.error(`\nparallel: failed: ${failed.join(', ')}`);
  process.exit(1);
}
