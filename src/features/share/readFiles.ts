import type { IncomingFile } from '../../state/slices/shareSlice.ts';

/** Reads picked or dropped files into bytes, keeping the folder path a dropped folder gives. */
export async function readPicked(files: Iterable<File>): Promise<IncomingFile[]> {
  return Promise.all(
    [...files].map(async (file) => ({
      name: file.webkitRelativePath || file.name,
      bytes: new Uint8Array(await file.arrayBuffer()),
    })),
  );
}
