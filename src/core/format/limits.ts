import type { Diagnostic } from '../diagnostics.ts';
import type { Project, ProjectFileName } from '../project.ts';
import { PROJECT_FILES } from '../project.ts';

/** The largest file PolicyLab checks, in bytes of UTF-8: 12 MB holds about 60,000 policies. */
export const MAX_FILE_BYTES = 12_000_000;
/** The largest project PolicyLab checks, its six files together. */
export const MAX_PROJECT_BYTES = 24_000_000;
/** The code of the diagnostic that says a file or the project is past these limits. */
export const TOO_LARGE = 'too-large';

/** The size of a text in UTF-8 bytes, without encoding it. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code < 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Bytes as a person reads them: `40.0 MB`, `512 KB`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  return `${Math.ceil(bytes / 1000)} KB`;
}

function atStart(file: ProjectFileName, message: string): Diagnostic {
  return {
    file,
    line: 1,
    column: 1,
    endLine: 1,
    endColumn: 2,
    severity: 'error',
    code: TOO_LARGE,
    message,
  };
}

const KEPT = 'Nothing in the project was checked; the text is kept as written.';

/** Why a file of `bytes` is not read, or undefined when it is within `MAX_FILE_BYTES`. */
export function fileTooLarge(name: string, bytes: number): string | undefined {
  if (bytes <= MAX_FILE_BYTES) return undefined;
  return `${name} is ${formatBytes(bytes)}; PolicyLab checks files up to ${formatBytes(MAX_FILE_BYTES)}.`;
}

/**
 * What is past the size limits of a project: each file over `MAX_FILE_BYTES`, or else the whole
 * project over `MAX_PROJECT_BYTES` (said at its largest file). Empty when the project can be
 * checked. Reading and checking a larger one would hold the page or the CLI for minutes.
 */
export function sizeProblems(files: Project['files']): Diagnostic[] {
  const exact = PROJECT_FILES.map(({ name }) => ({ name, bytes: utf8Length(files[name]) }));
  const over = exact.filter((s) => s.bytes > MAX_FILE_BYTES);
  if (over.length > 0)
    return over.map(({ name, bytes }) =>
      atStart(name, `${fileTooLarge(name, bytes) ?? ''} ${KEPT}`),
    );
  const total = exact.reduce((sum, s) => sum + s.bytes, 0);
  if (total <= MAX_PROJECT_BYTES) return [];
  const largest = exact.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  return [
    atStart(
      largest.name,
      `The project is ${formatBytes(total)} in all; PolicyLab checks projects up to ${formatBytes(MAX_PROJECT_BYTES)}. ${KEPT}`,
    ),
  ];
}
