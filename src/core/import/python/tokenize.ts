/** One token of Python source. `start`/`end` are offsets into the source text. */
export interface PyToken {
  readonly type: 'name' | 'number' | 'string' | 'op' | 'newline' | 'indent' | 'dedent' | 'eof';
  /**
   * The token's text; for a string, its decoded value (an f-string's body with its escapes
   * decoded, its braces left as written).
   */
  readonly value: string;
  readonly line: number;
  readonly start: number;
  readonly end: number;
  /** A string with an `f` prefix: its value holds `{expressions}` and `{{`/`}}` for braces. */
  readonly fstring?: boolean;
}

/** Something the reader could not read, with the line it is on (1-based). */
export interface PyProblem {
  readonly line: number;
  readonly message: string;
}

const OPERATORS = [
  '**=',
  '//=',
  '>>=',
  '<<=',
  '...',
  '->',
  ':=',
  '==',
  '!=',
  '<=',
  '>=',
  '**',
  '//',
  '<<',
  '>>',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '@=',
];
const SINGLE = new Set('()[]{}:,.;+-*/%|&^~<>=@!'.split(''));
const OPEN = new Set(['(', '[', '{']);
const CLOSE = new Set([')', ']', '}']);
const NAME_START = /[A-Za-z_\u00c0-\uffff]/;
const NAME_PART = /[A-Za-z0-9_\u00c0-\uffff]/;
const STRING_PREFIX = /^(?:[rRbBuUfF]|[rR][bBfF]|[bBfF][rR])?(['"])/;
const NUMBER =
  /^(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*)?\.?\d[\d_]*(?:[eE][+-]?\d+)?[jJ]?)/;

/**
 * Splits Python source into tokens with INDENT/DEDENT and logical NEWLINEs, as Python's own
 * tokenizer does, without ever running anything. It never throws: what it cannot read is
 * skipped and named in `problems`.
 */
export function tokenizePython(source: string): { tokens: PyToken[]; problems: PyProblem[] } {
  const tokens: PyToken[] = [];
  const problems: PyProblem[] = [];
  const indents = [0];
  let depth = 0;
  let line = 1;
  let i = 0;
  let atLineStart = true;
  const push = (type: PyToken['type'], value: string, start: number, end: number) =>
    tokens.push({ type, value, line, start, end });

  while (i < source.length) {
    if (atLineStart && depth === 0) {
      let width = 0;
      let j = i;
      while (j < source.length && (source[j] === ' ' || source[j] === '\t')) {
        width += source[j] === '\t' ? 8 - (width % 8) : 1;
        j++;
      }
      const next = source[j];
      i = j;
      atLineStart = false;
      if (next === undefined || next === '\n' || next === '\r' || next === '#') continue;
      const top = indents[indents.length - 1] ?? 0;
      if (width > top) {
        indents.push(width);
        push('indent', '', i, i);
      } else {
        while (width < (indents[indents.length - 1] ?? 0)) {
          indents.pop();
          push('dedent', '', i, i);
        }
        if (width !== (indents[indents.length - 1] ?? 0)) {
          problems.push({ line, message: 'This line is indented to no enclosing level.' });
          indents.push(width);
        }
      }
    }
    const c = source[i] ?? '';
    if (c === '\n' || c === '\r') {
      const last = tokens[tokens.length - 1];
      if (
        depth === 0 &&
        last !== undefined &&
        last.type !== 'newline' &&
        last.type !== 'indent' &&
        last.type !== 'dedent'
      )
        push('newline', '', i, i);
      i += c === '\r' && source[i + 1] === '\n' ? 2 : 1;
      line++;
      atLineStart = depth === 0;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\f') {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < source.length && source[i] !== '\n' && source[i] !== '\r') i++;
      continue;
    }
    if (c === '\\' && (source[i + 1] === '\n' || source[i + 1] === '\r')) {
      i += source[i + 1] === '\r' && source[i + 2] === '\n' ? 3 : 2;
      line++;
      continue;
    }
    const prefix = STRING_PREFIX.exec(source.slice(i, i + 3));
    if (prefix) {
      const read = readString(source, i, prefix[0].length - 1, line);
      if (read.problem !== undefined) problems.push({ line, message: read.problem });
      tokens.push({
        type: 'string',
        value: read.value,
        line,
        start: i,
        end: read.end,
        ...(read.fstring ? { fstring: true } : {}),
      });
      line += read.lines;
      i = read.end;
      continue;
    }
    if (NAME_START.test(c)) {
      let j = i + 1;
      while (j < source.length && NAME_PART.test(source[j] ?? '')) j++;
      push('name', source.slice(i, j), i, j);
      i = j;
      continue;
    }
    if (/\d/.test(c) || (c === '.' && /\d/.test(source[i + 1] ?? ''))) {
      const match = NUMBER.exec(source.slice(i, i + 64));
      const text = match?.[0] || c;
      push('number', text, i, i + text.length);
      i += text.length;
      continue;
    }
    const op = OPERATORS.find((o) => source.startsWith(o, i)) ?? (SINGLE.has(c) ? c : undefined);
    if (op !== undefined) {
      if (OPEN.has(op)) depth++;
      else if (CLOSE.has(op)) depth = Math.max(0, depth - 1);
      push('op', op, i, i + op.length);
      i += op.length;
      continue;
    }
    problems.push({ line, message: `Unexpected character ${JSON.stringify(c)} was skipped.` });
    i++;
  }
  const last = tokens[tokens.length - 1];
  if (last !== undefined && last.type !== 'newline' && last.type !== 'dedent')
    push('newline', '', i, i);
  if (depth > 0) problems.push({ line, message: 'A bracket is never closed.' });
  while (indents.length > 1) {
    indents.pop();
    push('dedent', '', i, i);
  }
  push('eof', '', i, i);
  return { tokens, problems };
}

interface ReadString {
  readonly value: string;
  readonly end: number;
  readonly lines: number;
  readonly fstring: boolean;
  readonly problem?: string;
}

/** Reads a string literal whose prefix is `prefixLength` characters long. */
function readString(source: string, start: number, prefixLength: number, line: number): ReadString {
  const prefix = source.slice(start, start + prefixLength).toLowerCase();
  const raw = prefix.includes('r');
  const fstring = prefix.includes('f');
  const q = source[start + prefixLength] ?? '"';
  const triple = source.startsWith(q.repeat(3), start + prefixLength);
  const quote = triple ? q.repeat(3) : q;
  let i = start + prefixLength + quote.length;
  const bodyStart = i;
  let lines = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') {
      if (source[i + 1] === '\n') lines++;
      i += 2;
      continue;
    }
    if (source.startsWith(quote, i)) {
      const body = source.slice(bodyStart, i);
      return {
        value: raw ? body : unescape(body),
        end: i + quote.length,
        lines,
        fstring,
      };
    }
    if (c === '\n') {
      if (!triple) break;
      lines++;
    }
    i++;
  }
  const body = source.slice(bodyStart, i);
  return {
    value: raw ? body : unescape(body),
    end: i,
    lines,
    fstring,
    problem: `A string opened on line ${line} is never closed.`,
  };
}

const ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '0': '\0',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\n': '',
};

/** Decodes the escapes of a non-raw Python string body. */
function unescape(body: string): string {
  return body.replace(
    /\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[\s\S])/g,
    (all, e: string) => {
      if (/^[xuU]/.test(e) && e.length > 1) {
        const code = parseInt(e.slice(1), 16);
        return code <= 0x10ffff ? String.fromCodePoint(code) : all;
      }
      return ESCAPES[e] ?? all;
    },
  );
}
