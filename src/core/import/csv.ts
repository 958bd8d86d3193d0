/** A CSV read as rows of cells, with what it could not read. */
export interface CsvTable {
  readonly header: readonly string[];
  readonly rows: ReadonlyArray<readonly string[]>;
  /** The 1-based line each row starts on. */
  readonly lines: readonly number[];
  readonly problems: ReadonlyArray<{ readonly line: number; readonly message: string }>;
}

/**
 * Reads RFC 4180 CSV: comma-separated, double-quoted cells that may hold commas, quotes (`""`)
 * and line breaks. Never throws; a quote left open is reported and the cell runs to the end.
 */
export function readCsv(text: string): CsvTable {
  const records: string[][] = [];
  const lines: number[] = [];
  const problems: Array<{ line: number; message: string }> = [];
  let record: string[] = [];
  let cell = '';
  let line = 1;
  let recordLine = 1;
  let quoted = false;
  let quoteLine = 0;
  let quotedCell = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = () => {
    record.push(cell);
    cell = '';
    // A blank line is no record; a line holding only "" is one empty cell.
    if (!(record.length === 1 && record[0] === '' && !quotedCell)) {
      records.push(record);
      lines.push(recordLine);
    }
    record = [];
    quotedCell = false;
  };
  for (; i < text.length; i++) {
    const c = text[i] ?? '';
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        cell += c;
      }
      continue;
    }
    if (c === '"' && cell === '') {
      quoted = true;
      quotedCell = true;
      quoteLine = line;
    } else if (c === ',') {
      record.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else cell += c;
  }
  if (quoted)
    problems.push({
      line: quoteLine,
      message: 'A quoted cell is never closed; it runs to the end of the file.',
    });
  if (cell !== '' || record.length > 0 || quotedCell) endRecord();
  const [header = [], ...rows] = records;
  const [, ...rowLines] = lines;
  rows.forEach((row, r) => {
    if (row.length !== header.length)
      problems.push({
        line: rowLines[r] ?? 0,
        message: `This row has ${row.length} cells where the header names ${header.length}.`,
      });
  });
  return { header, rows, lines: rowLines, problems };
}
