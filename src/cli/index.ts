import { readFileSync } from 'node:fs';
import { runCli } from './main.ts';

const packageJson = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string };

process.exitCode = await runCli(process.argv.slice(2), packageJson.version, {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
