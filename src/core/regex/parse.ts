/*
 * Reads a JavaScript regular expression (Unicode mode, already accepted by `new RegExp`) into a
 * tree the linear matcher compiles. Only the structure is read here: every piece that matches one
 * character (a literal, a class, an escape like `\d` or `\p{L}`, the dot) keeps its source text and
 * is later tested by the JavaScript engine on a single character, which cannot backtrack, so case
 * folding and classes mean exactly what they mean in JavaScript. What needs backtracking
 * (backreferences, lookahead, lookbehind) is refused with the construct's name and offset.
 */

/** One piece of a pattern's tree. */
export type Node =
  | { readonly t: 'char'; readonly source: string }
  | { readonly t: 'assert'; readonly kind: '^' | '$' | 'b' | 'B' }
  | { readonly t: 'cat'; readonly items: readonly Node[] }
  | { readonly t: 'alt'; readonly items: readonly Node[] }
  | {
      readonly t: 'rep';
      readonly node: Node;
      readonly min: number;
      readonly max: number;
      readonly lazy: boolean;
    };

/** A construct the linear matcher cannot run, at `offset` in the pattern. */
export class UnsupportedPattern extends Error {
  readonly offset: number;
  readonly construct: string;
  constructor(construct: string, offset: number, message: string) {
    super(message);
    this.name = 'UnsupportedPattern';
    this.construct = construct;
    this.offset = offset;
  }
}

const LINEAR_HINT = 'Patterns run on a matcher that cannot backtrack, so a pattern never stalls.';

function unsupported(construct: string, offset: number, advice: string): UnsupportedPattern {
  return new UnsupportedPattern(
    construct,
    offset,
    `${construct} (at character ${offset + 1}) is not supported: ${advice} ${LINEAR_HINT}`,
  );
}

/** Parses `source`, which `new RegExp(source, 'u')` accepted; throws `UnsupportedPattern`. */
export function parsePattern(source: string): Node {
  const reader = new Reader(source);
  const node = reader.alternation();
  if (reader.pos < source.length) throw new Error(`Unexpected ")" at ${reader.pos + 1}.`);
  return node;
}

class Reader {
  pos = 0;
  private readonly src: string;
  constructor(src: string) {
    this.src = src;
  }

  alternation(): Node {
    const items = [this.sequence()];
    while (this.src[this.pos] === '|') {
      this.pos++;
      items.push(this.sequence());
    }
    return items.length === 1 ? (items[0] as Node) : { t: 'alt', items };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.pos < this.src.length && this.src[this.pos] !== '|' && this.src[this.pos] !== ')')
      items.push(this.term());
    return items.length === 1 ? (items[0] as Node) : { t: 'cat', items };
  }

  private term(): Node {
    const start = this.pos;
    const atom = this.atom();
    const quantifier = this.quantifier();
    if (!quantifier) return atom;
    if (quantifier.min > 1000 || (quantifier.max !== Infinity && quantifier.max > 1000))
      throw unsupported(
        'A repeat count over 1000',
        start,
        'write a smaller count, or a `+` or `*`.',
      );
    return { t: 'rep', node: atom, ...quantifier };
  }

  private quantifier(): { min: number; max: number; lazy: boolean } | undefined {
    const c = this.src[this.pos];
    let min: number;
    let max: number;
    if (c === '*' || c === '+' || c === '?') {
      this.pos++;
      [min, max] = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos));
      if (!m) return undefined;
      this.pos += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    } else return undefined;
    const lazy = this.src[this.pos] === '?';
    if (lazy) this.pos++;
    return { min, max, lazy };
  }

  private atom(): Node {
    const { src } = this;
    const start = this.pos;
    const c = src[start] as string;
    if (c === '^' || c === '$') {
      this.pos++;
      return { t: 'assert', kind: c };
    }
    if (c === '(') return this.group();
    if (c === '[') return { t: 'char', source: this.classSource() };
    if (c === '\\') return this.escape();
    const cp = src.codePointAt(start) ?? 0;
    this.pos += cp > 0xffff ? 2 : 1;
    return { t: 'char', source: src.slice(start, this.pos) };
  }

  private group(): Node {
    const start = this.pos;
    const rest = this.src.slice(start, start + 4);
    if (rest.startsWith('(?=') || rest.startsWith('(?!'))
      throw unsupported(
        rest.startsWith('(?=') ? 'A lookahead "(?=…)"' : 'A negative lookahead "(?!…)"',
        start,
        'match the text itself instead, or use a second check.',
      );
    if (rest.startsWith('(?<=') || rest.startsWith('(?<!'))
      throw unsupported(
        rest.startsWith('(?<=') ? 'A lookbehind "(?<=…)"' : 'A negative lookbehind "(?<!…)"',
        start,
        'match the text itself instead, or use a second check.',
      );
    if (rest.startsWith('(?:')) this.pos += 3;
    else if (rest.startsWith('(?<')) this.pos = this.src.indexOf('>', start) + 1;
    else if (rest.startsWith('(?'))
      throw unsupported('An inline modifier "(?…)"', start, 'write the pattern without it.');
    else this.pos += 1;
    const inner = this.alternation();
    this.pos++; // ")"
    return inner;
  }

  private classSource(): string {
    const start = this.pos;
    let i = start + 1;
    if (this.src[i] === '^') i++;
    while (i < this.src.length && this.src[i] !== ']') i += this.src[i] === '\\' ? 2 : 1;
    this.pos = i + 1;
    return this.src.slice(start, this.pos);
  }

  private escape(): Node {
    const { src } = this;
    const start = this.pos;
    const c = src[start + 1] ?? '';
    if (c === 'b' || c === 'B') {
      this.pos += 2;
      return { t: 'assert', kind: c };
    }
    if (/[1-9]/.test(c) || c === 'k')
      throw unsupported(
        `A backreference "${c === 'k' ? src.slice(start, src.indexOf('>', start) + 1) : `\\${c}`}"`,
        start,
        'a backreference matches what a group matched, which needs backtracking; write the text out.',
      );
    let end = start + 2;
    const fixed = /^(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|[pP]\{[^}]*\}|c[a-zA-Z])/.exec(
      src.slice(start + 1),
    );
    if (fixed) end = start + 1 + fixed[0].length;
    else if (c === 'u') {
      end = start + 6;
      // A surrogate pair written as two escapes is one character in Unicode mode.
      if (/^\\u[dD][89abAB]..\\u[dD][c-fC-F]/.test(src.slice(start, start + 12))) end += 6;
    }
    this.pos = end;
    return { t: 'char', source: src.slice(start, end) };
  }
}
