import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';

/*
 * `vite preview` for the benchmarks that drive Chromium: each on its own port, started in its own
 * process group so that stopping it ends npx and the vite under it, and never left behind.
 */

/** Starts `vite preview` on the build in its own process group, and waits until it answers. */
export async function startPreview(outDir: string, port: number): Promise<ChildProcess> {
  const origin = `http://127.0.0.1:${String(port)}`;
  const answers = () =>
    fetch(origin).then(
      (response) => response.ok,
      () => false,
    );
  if (await answers()) throw new Error(`Something already answers on port ${String(port)}.`);
  const server = spawn(
    'npx',
    [
      'vite',
      'preview',
      '--outDir',
      outDir,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--strictPort',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  let said = '';
  server.stderr.on('data', (chunk: Buffer) => {
    said = (said + chunk.toString()).slice(-2000);
  });
  for (let i = 0; i < 150; i++) {
    if (server.exitCode !== null || server.signalCode !== null) {
      stopPreview(server);
      const how = server.signalCode ?? `code ${String(server.exitCode)}`;
      throw new Error(`vite preview ended (${how}): ${said.trim()}`);
    }
    if (await answers()) return server;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  stopPreview(server);
  throw new Error(
    `vite preview did not answer on port ${String(port)} within 30 s. ${said.trim()}`,
  );
}

/** Ends the server's whole process group (npx and the vite under it). */
export function stopPreview(server: ChildProcess): void {
  if (server.pid === undefined) return;
  try {
    process.kill(-server.pid);
  } catch {
    // Already gone.
  }
}
