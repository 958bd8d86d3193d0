import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DropImport, DroppedFile } from '../core/import/drop.ts';
import { importDrop } from '../core/import/drop.ts';
import { createWorkerImporter, importInThread } from './importClient.ts';

const LIBRARY = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  '../core/import/testdata/tau2-library',
);
const files: DroppedFile[] = readdirSync(LIBRARY, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile())
  .map((e) => {
    const full = path.join(e.parentPath, e.name);
    return { name: `library/${path.relative(LIBRARY, full)}`, bytes: readFileSync(full) };
  });

/** A stand-in for the import worker: answers as the real one does, copying across "threads". */
class FakeWorker {
  onmessage: ((event: { data: DropImport }) => void) | null = null;
  onerror: ((event: { message: string; preventDefault(): void }) => void) | null = null;
  terminated = false;
  readonly crash: string | undefined;
  constructor(crash?: string) {
    this.crash = crash;
  }
  postMessage(data: readonly DroppedFile[]) {
    const copied = structuredClone(data);
    queueMicrotask(() => {
      if (this.crash !== undefined)
        this.onerror?.({ message: this.crash, preventDefault: () => undefined });
      else this.onmessage?.({ data: structuredClone(importDrop(copied)) });
    });
  }
  terminate() {
    this.terminated = true;
  }
}

describe('the import worker’s client', () => {
  it('imports in a worker, gives the same project as in-thread, and ends the worker', async () => {
    const worker = new FakeWorker();
    const imported = await createWorkerImporter(() => worker as unknown as Worker)(files);
    expect(worker.terminated).toBe(true);
    expect(imported.kind).toBe('domain');
    expect(imported).toEqual(await importInThread(files));
  });

  it('says in words when the worker crashes, and ends it', async () => {
    const worker = new FakeWorker('out of memory');
    const imported = await createWorkerImporter(() => worker as unknown as Worker)(files);
    expect(imported).toEqual({
      kind: 'error',
      message: 'The import stopped before it finished: out of memory',
    });
    expect(worker.terminated).toBe(true);
  });

  it('imports on this thread where no worker can be made', async () => {
    const imported = await createWorkerImporter(() => {
      throw new Error('no workers here');
    })(files);
    expect(imported.kind).toBe('domain');
  });
});
