/** Files larger than this are refused before they are read, on the page and in the CLI. */
export const MAX_IMPORT_BYTES = 32 * 1024 * 1024;

/** Why a file of `bytes` is not read, in the words the page and the CLI both use. */
export function importTooLarge(name: string, bytes: number): string | undefined {
  if (bytes <= MAX_IMPORT_BYTES) return undefined;
  return `“${name}” is too large to open (${Math.round(bytes / 1048576)} MB; the limit is ${MAX_IMPORT_BYTES / 1048576} MB).`;
}
