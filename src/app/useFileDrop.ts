import { useEffect } from 'react';
import type { IncomingFile } from '../state/slices/shareSlice.ts';
import { useAppStoreApi } from '../state/useAppStore.ts';

/** Files a dropped folder may hold before the rest are left out. */
const MAX_DROPPED_FILES = 200;

/** The files of a dropped entry: itself, or every file under a folder (to a limit). */
async function filesOf(entry: FileSystemEntry, into: IncomingFile[]): Promise<void> {
  if (into.length >= MAX_DROPPED_FILES) return;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => {
      (entry as FileSystemFileEntry).file(resolve, reject);
    });
    into.push({
      name: entry.fullPath.replace(/^\//, ''),
      bytes: new Uint8Array(await file.arrayBuffer()),
    });
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => {
      reader.readEntries(resolve, reject);
    });
    if (batch.length === 0) return;
    for (const child of batch) await filesOf(child, into);
  }
}

/**
 * Opens what is dropped anywhere on the page: a bundle, a zip, a run's log, or a folder's project
 * files. Drops into the editor are the editor's (text), never taken here.
 */
export function useFileDrop() {
  const store = useAppStoreApi();
  useEffect(() => {
    const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') === true;
    const over = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    };
    const drop = (event: DragEvent) => {
      if (!carriesFiles(event) || !event.dataTransfer) return;
      event.preventDefault();
      const entries = [...event.dataTransfer.items].flatMap((item) => {
        const entry = item.webkitGetAsEntry();
        return entry ? [entry] : [];
      });
      const plain = [...event.dataTransfer.files];
      void (async () => {
        const files: IncomingFile[] = [];
        if (entries.length > 0) for (const entry of entries) await filesOf(entry, files);
        else
          for (const file of plain)
            files.push({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) });
        if (files.length > 0) await store.getState().importFiles(files);
      })();
    };
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [store]);
}
