/** Saves data as a file through the browser's download (nothing leaves the machine). */
export function downloadFile(data: Blob | string | Uint8Array, name: string, type: string): void {
  const blob = data instanceof Blob ? data : new Blob([data as BlobPart], { type });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // The download has its own copy once it starts.
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 1_000);
}

/** A file name's stem made of a title: lowercase letters, digits and dashes only. */
export function fileStem(title: string, fallback: string): string {
  const stem = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return stem || fallback;
}
