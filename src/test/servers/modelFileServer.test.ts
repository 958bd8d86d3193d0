import { describe, expect, it } from 'vitest';
import { startModelFileServer } from './modelFileServer.ts';

describe('startModelFileServer', () => {
  it('serves files with length, ETag, CORS, HEAD and byte ranges, and counts requests', async () => {
    const bytes = new Uint8Array(1000).map((_, i) => i % 256);
    const server = await startModelFileServer({ 'models/m.gguf': bytes });
    try {
      const url = `${server.url}/models/m.gguf`;
      const full = await fetch(url);
      expect(full.headers.get('content-length')).toBe('1000');
      expect(full.headers.get('access-control-allow-origin')).toBe('*');
      expect(full.headers.get('etag')).toMatch(/^"[0-9a-f]{40}"$/);
      expect(new Uint8Array(await full.arrayBuffer())).toEqual(bytes);

      const head = await fetch(url, { method: 'HEAD' });
      expect([head.status, head.headers.get('content-length')]).toEqual([200, '1000']);

      const part = await fetch(url, { headers: { Range: 'bytes=10-19' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe('bytes 10-19/1000');
      expect([...new Uint8Array(await part.arrayBuffer())]).toEqual([...bytes.subarray(10, 20)]);

      expect((await fetch(`${server.url}/nope`)).status).toBe(404);
      expect(server.count('/models/m.gguf')).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('throttles a body so progress can be watched', async () => {
    const server = await startModelFileServer(
      { 'm.gguf': new Uint8Array(30_000) },
      { bytesPerSecond: 100_000 },
    );
    try {
      const started = performance.now();
      await (await fetch(`${server.url}/m.gguf`)).arrayBuffer();
      expect(performance.now() - started).toBeGreaterThan(200);
    } finally {
      await server.close();
    }
  });
});
