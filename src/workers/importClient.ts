import type { DropImport, DroppedFile } from '../core/import/drop.ts';

/** Imports the domain among dropped files as a project, with its report. */
export type DomainImporter = (files: readonly DroppedFile[]) => Promise<DropImport>;

/** Imports on the calling thread (tests, and pages without workers); the code loads on first use. */
export const importInThread: DomainImporter = async (files) => {
  const { importDrop } = await import('../core/import/drop.ts');
  return importDrop(files);
};

const defaultWorker = () =>
  new Worker(new URL('./import.worker.ts', import.meta.url), { type: 'module' });

/**
 * Imports each drop in a Web Worker of its own, ended when it answers, so a large database never
 * freezes the page. A worker that crashes gives a refusal in words; where workers cannot be made,
 * the import runs on the calling thread.
 */
export function createWorkerImporter(createWorker: () => Worker = defaultWorker): DomainImporter {
  return (files) => {
    let worker: Worker;
    try {
      worker = createWorker();
    } catch {
      return importInThread(files);
    }
    return new Promise<DropImport>((resolve) => {
      worker.onmessage = (event: MessageEvent<DropImport>) => {
        worker.terminate();
        resolve(event.data);
      };
      worker.onerror = (event) => {
        event.preventDefault();
        worker.terminate();
        resolve({
          kind: 'error',
          message: `The import stopped before it finished: ${event.message || 'unknown error'}`,
        });
      };
      worker.postMessage(files);
    });
  };
}
