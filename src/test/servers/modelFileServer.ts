import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A file to serve: its bytes (or text) and, optionally, its content type. */
export type ServedFile =
  Uint8Array | string | { readonly body: Uint8Array | string; readonly type: string };

/** One request the server answered (or refused). */
export interface ServedRequest {
  readonly method: string;
  readonly path: string;
  readonly range: string | undefined;
  readonly status: number;
}

/** How to serve. */
export interface ModelFileServerOptions {
  /** Send bodies at about this many bytes per second, so a download's progress is visible. */
  readonly bytesPerSecond?: number;
  /** Headers added to every answer, e.g. COOP/COEP for a page that needs cross-origin isolation. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A running server. */
export interface ModelFileServer {
  /** Origin with no trailing slash, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  /** Every request so far, in order. */
  readonly requests: readonly ServedRequest[];
  /** How many GET requests asked for `path`. */
  count(path: string): number;
  /** Stops the server and cuts any transfer still running. */
  close(): Promise<void>;
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
};

/**
 * Serves in-memory files over HTTP on 127.0.0.1 (a free port), the way a model host such as
 * Hugging Face does: Content-Length, a strong ETag, CORS and CORP headers, HEAD, and single byte
 * ranges. For tests and benchmarks only.
 */
export async function startModelFileServer(
  files: Readonly<Record<string, ServedFile>>,
  options: ModelFileServerOptions = {},
): Promise<ModelFileServer> {
  const table = new Map(
    Object.entries(files).map(([path, file]) => {
      const body = typeof file === 'string' || file instanceof Uint8Array ? file : file.body;
      const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body);
      const ext = /\.[a-z0-9]+$/i.exec(path)?.[0] ?? '';
      const type =
        typeof file === 'object' && 'type' in file
          ? file.type
          : (TYPES[ext] ?? 'application/octet-stream');
      const etag = `"${createHash('sha1').update(bytes).digest('hex')}"`;
      return [path.startsWith('/') ? path : `/${path}`, { bytes, type, etag }] as const;
    }),
  );
  const requests: ServedRequest[] = [];
  const live = new Set<ServerResponse>();

  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const method = req.method ?? 'GET';
    const range = req.headers.range;
    const done = (status: number) => requests.push({ method, path, range, status });
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', '*');
    res.setHeader('Access-Control-Expose-Headers', 'Content-Length, Content-Range, ETag');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    for (const [name, value] of Object.entries(options.headers ?? {})) res.setHeader(name, value);
    if (method === 'OPTIONS') {
      done(204);
      res.writeHead(204).end();
      return;
    }
    const file = table.get(path === '/' ? '/index.html' : path);
    if (!file || (method !== 'GET' && method !== 'HEAD')) {
      done(file ? 405 : 404);
      res.writeHead(file ? 405 : 404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    let start = 0;
    let end = file.bytes.length - 1;
    let status = 200;
    const match = range ? /^bytes=(\d*)-(\d*)$/.exec(range) : null;
    if (match) {
      start = match[1] ? Number(match[1]) : Math.max(0, file.bytes.length - Number(match[2]));
      end = match[1] && match[2] ? Math.min(Number(match[2]), end) : end;
      if (start > end || start >= file.bytes.length) {
        done(416);
        res.writeHead(416, { 'Content-Range': `bytes */${file.bytes.length}` }).end();
        return;
      }
      status = 206;
      res.setHeader('Content-Range', `bytes ${start}-${end}/${file.bytes.length}`);
    }
    res.writeHead(status, {
      'Content-Type': file.type,
      'Content-Length': end - start + 1,
      'Accept-Ranges': 'bytes',
      'Cache-Control': 'no-store',
      ETag: file.etag,
    });
    done(status);
    if (method === 'HEAD') {
      res.end();
      return;
    }
    send(res, file.bytes.subarray(start, end + 1), options.bytesPerSecond, live);
  };

  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    count: (path) => requests.filter((r) => r.method === 'GET' && r.path === path).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of live) res.destroy();
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** Writes a body at once, or in ten slices a second when throttled; stops if the client goes. */
function send(
  res: ServerResponse,
  body: Uint8Array,
  bytesPerSecond: number | undefined,
  live: Set<ServerResponse>,
): void {
  if (bytesPerSecond === undefined) {
    res.end(body);
    return;
  }
  const slice = Math.max(1, Math.floor(bytesPerSecond / 10));
  let at = 0;
  live.add(res);
  const timer = setInterval(() => {
    if (res.destroyed) {
      clearInterval(timer);
      live.delete(res);
      return;
    }
    const next = Math.min(body.length, at + slice);
    res.write(body.subarray(at, next));
    at = next;
    if (at >= body.length) {
      clearInterval(timer);
      live.delete(res);
      res.end();
    }
  }, 100);
  res.on('close', () => {
    clearInterval(timer);
    live.delete(res);
  });
}
