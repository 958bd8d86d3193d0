import type { ProjectFileName } from './project.ts';

export type Severity = 'error' | 'warning' | 'info';

/** One problem in one file, positioned for an editor marker (lines and columns start at 1). */
export interface Diagnostic {
  readonly file: ProjectFileName;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly severity: Severity;
  /** A stable kind, such as `yaml-syntax` or `unknown-policy`, for filters and tests. */
  readonly code: string;
  readonly message: string;
}

/** Maps character offsets in a text to 1-based lines and columns. */
export class LineIndex {
  private readonly starts: number[] = [0];
  readonly text: string;

  constructor(text: string) {
    this.text = text;
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  /** The 1-based line and column of an offset, clamped to the text. */
  position(offset: number): { line: number; column: number } {
    const at = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= at) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: at - (this.starts[low] ?? 0) + 1 };
  }

  /** The offset of a 1-based line and column, clamped to the text. */
  offset(line: number, column: number): number {
    const start = this.starts[Math.max(0, Math.min(line - 1, this.starts.length - 1))] ?? 0;
    return Math.min(start + Math.max(0, column - 1), this.text.length);
  }

  get lineCount(): number {
    return this.starts.length;
  }
}

/** A span of a file's text, as character offsets. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** Builds a diagnostic for a span of a file. */
export function diagnosticAt(
  file: ProjectFileName,
  index: LineIndex,
  span: Span,
  severity: Severity,
  code: string,
  message: string,
): Diagnostic {
  const start = index.position(span.start);
  const end = index.position(Math.max(span.end, span.start + 1));
  return {
    file,
    line: start.line,
    column: start.column,
    endLine: end.line,
    endColumn: end.column,
    severity,
    code,
    message,
  };
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Orders diagnostics by file order, then position, then severity. */
export function sortDiagnostics(
  diagnostics: readonly Diagnostic[],
  fileOrder: readonly ProjectFileName[],
): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      fileOrder.indexOf(a.file) - fileOrder.indexOf(b.file) ||
      a.line - b.line ||
      a.column - b.column ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      a.message.localeCompare(b.message),
  );
}

/** Counts diagnostics by severity. */
export function countBySeverity(
  diagnostics: readonly Diagnostic[],
): Record<Diagnostic['severity'], number> {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) counts[d.severity]++;
  return counts;
}
