import type { Node } from './parse.ts';
import { UnsupportedPattern, parsePattern } from './parse.ts';

/*
 * A regular-expression matcher whose time is linear in the text: the pattern becomes a small
 * program run as a Pike VM (every possible position in the pattern is followed at once, one pass
 * over the text), so `(a+)+$` on "aaaa…!" costs as much as `a+$`. It keeps JavaScript's syntax and
 * its leftmost-first answer: the match `RegExp.exec` finds, at the same index.
 */

/** A compiled pattern. */
export interface LinearRegex {
  readonly source: string;
  readonly flags: PatternFlags;
  /** The leftmost match, as `RegExp.exec` would find it: its index and text. */
  exec(text: string): { readonly index: number; readonly text: string } | undefined;
  test(text: string): boolean;
}

/** Why a pattern cannot be compiled, at `offset` in its source; `construct` when it is valid JavaScript. */
export interface PatternProblem {
  readonly message: string;
  readonly offset: number;
  readonly construct?: string;
}

/** `iu` for rules.yaml and scenario patterns, `u` for CEL's `matches`. */
export type PatternFlags = 'iu' | 'u';

/** How deep optional repeats may nest (each level doubles what a step may track). */
const MAX_NESTING = 8;

/** The largest program a pattern may compile to (repeat counts multiply it). */
export const MAX_PROGRAM = 20_000;

type Instruction =
  | { readonly op: 'char'; readonly test: (cp: number) => boolean }
  | { readonly op: 'split'; x: number; y: number }
  | { readonly op: 'jmp'; to: number }
  | { readonly op: 'assert'; readonly kind: '^' | '$' | 'b' | 'B' }
  /** Where an optional repetition began (register `r`). */
  | { readonly op: 'mark'; readonly r: number }
  /** Fails a repetition that matched nothing, as JavaScript rejects an empty optional iteration. */
  | { readonly op: 'progress'; readonly r: number }
  | { readonly op: 'match' };

const compiled = new Map<string, LinearRegex | PatternProblem>();

/** Tells a problem from a compiled pattern. */
export function isPatternProblem(value: LinearRegex | PatternProblem): value is PatternProblem {
  return 'message' in value;
}

/**
 * Compiles `source` with `flags`: a syntax error JavaScript reports, a construct that needs
 * backtracking (backreference, lookaround) or a pattern too large is a problem. Cached.
 */
export function compilePattern(source: string, flags: PatternFlags): LinearRegex | PatternProblem {
  const key = `${flags}/${source}`;
  const cached = compiled.get(key);
  if (cached) return cached;
  const result = compileUncached(source, flags);
  if (compiled.size > 2000) compiled.clear();
  compiled.set(key, result);
  return result;
}

function compileUncached(source: string, flags: PatternFlags): LinearRegex | PatternProblem {
  try {
    // Compiling only reads the pattern; running it is what may backtrack.
    new RegExp(source, flags);
  } catch (error) {
    return { message: error instanceof Error ? error.message : String(error), offset: 0 };
  }
  let program: Program;
  try {
    program = new Compiler(flags).program(parsePattern(source));
  } catch (error) {
    if (error instanceof UnsupportedPattern)
      return { message: error.message, offset: error.offset, construct: error.construct };
    return { message: error instanceof Error ? error.message : String(error), offset: 0 };
  }
  const isWord = charTest('\\w', flags);
  return {
    source,
    flags,
    exec: (text) => run(program, isWord, text),
    test: (text) => run(program, isWord, text) !== undefined,
  };
}

/** A test of one character by JavaScript's own engine, remembered per character. */
function charTest(source: string, flags: PatternFlags): (cp: number) => boolean {
  const regex = new RegExp(`^(?:${source})$`, flags);
  const seen = new Map<number, boolean>();
  return (cp) => {
    let hit = seen.get(cp);
    if (hit === undefined) {
      hit = regex.test(String.fromCodePoint(cp));
      if (seen.size < 4096) seen.set(cp, hit);
    }
    return hit;
  };
}

class Compiler {
  private readonly out: Instruction[] = [];
  private registers = 0;
  /** The registers of the repetitions each instruction sits inside. */
  private readonly enclosing: (readonly number[])[] = [];
  private readonly open: number[] = [];
  private readonly flags: PatternFlags;
  constructor(flags: PatternFlags) {
    this.flags = flags;
  }

  program(node: Node): Program {
    this.emit(node);
    this.push({ op: 'match' });
    return { instructions: this.out, registers: this.registers, enclosing: this.enclosing };
  }

  private push(instruction: Instruction): number {
    this.enclosing.push([...this.open]);
    if (this.out.length >= MAX_PROGRAM)
      throw new UnsupportedPattern(
        'A pattern this large',
        0,
        `This pattern is too large to match safely (over ${MAX_PROGRAM} steps); repeat counts like {500} multiply it.`,
      );
    this.out.push(instruction);
    return this.out.length - 1;
  }

  private emit(node: Node): void {
    switch (node.t) {
      case 'char':
        this.push({ op: 'char', test: charTest(node.source, this.flags) });
        return;
      case 'assert':
        this.push({ op: 'assert', kind: node.kind });
        return;
      case 'cat':
        for (const item of node.items) this.emit(item);
        return;
      case 'alt': {
        const jumps: { op: 'jmp'; to: number }[] = [];
        node.items.forEach((item, i) => {
          if (i === node.items.length - 1) {
            this.emit(item);
            return;
          }
          const split = { op: 'split' as const, x: 0, y: 0 };
          this.push(split);
          split.x = this.out.length;
          this.emit(item);
          const jump = { op: 'jmp' as const, to: 0 };
          this.push(jump);
          jumps.push(jump);
          split.y = this.out.length;
        });
        for (const jump of jumps) jump.to = this.out.length;
        return;
      }
      case 'rep':
        this.repeat(node.node, node.min, node.max, node.lazy);
    }
  }

  private repeat(node: Node, min: number, max: number, lazy: boolean): void {
    for (let i = 0; i < min; i++) this.emit(node);
    if (max === Infinity) {
      const split = { op: 'split' as const, x: 0, y: 0 };
      const loop = this.push(split);
      const body = this.out.length;
      this.iteration(node);
      this.push({ op: 'jmp', to: loop });
      this.order(split, body, this.out.length, lazy);
      return;
    }
    const splits: { op: 'split'; x: number; y: number }[] = [];
    for (let i = min; i < max; i++) {
      const split = { op: 'split' as const, x: 0, y: 0 };
      this.push(split);
      splits.push(split);
      split.x = this.out.length;
      this.iteration(node);
    }
    for (const split of splits) this.order(split, split.x, this.out.length, lazy);
  }

  /** One iteration past the minimum: it must match something. */
  private iteration(node: Node): void {
    const r = this.registers++;
    if (this.open.length >= MAX_NESTING)
      throw new UnsupportedPattern(
        'Repeats nested this deep',
        0,
        `Repeats nested more than ${MAX_NESTING} deep (like ((a*)*)*) are not supported; write the pattern flatter.`,
      );
    this.push({ op: 'mark', r });
    this.open.push(r);
    this.emit(node);
    this.push({ op: 'progress', r });
    this.open.pop();
  }

  private order(split: { x: number; y: number }, body: number, after: number, lazy: boolean) {
    [split.x, split.y] = lazy ? [after, body] : [body, after];
  }
}

/**
 * One list of threads in priority order, each with its start and registers. A thread is known by
 * its instruction and by which enclosing repeats began at this very position and have matched
 * nothing yet: threads alike in both behave alike from here on, so only the first is kept.
 */
class Threads {
  pcs: number[] = [];
  starts: number[] = [];
  registers: (Int32Array | undefined)[] = [];
  readonly seen = new Set<number>();
  clear(): void {
    this.pcs = [];
    this.starts = [];
    this.registers = [];
    this.seen.clear();
  }
}

interface Program {
  readonly instructions: readonly Instruction[];
  readonly registers: number;
  readonly enclosing: readonly (readonly number[])[];
}

function run(
  { instructions: program, registers: count, enclosing }: Program,
  isWord: (cp: number) => boolean,
  text: string,
): { index: number; text: string } | undefined {
  let current = new Threads();
  let next = new Threads();
  const stack: { pc: number; registers: Int32Array | undefined }[] = [];
  const wordBefore = (at: number): boolean =>
    at > 0 && isWord(text.codePointAt(at - (isLowSurrogateAt(text, at - 1) ? 2 : 1)) ?? 0);
  const wordAt = (at: number): boolean => at < text.length && isWord(text.codePointAt(at) ?? 0);
  const holds = (kind: '^' | '$' | 'b' | 'B', at: number): boolean => {
    if (kind === '^') return at === 0;
    if (kind === '$') return at === text.length;
    const boundary = wordBefore(at) !== wordAt(at);
    return kind === 'b' ? boundary : !boundary;
  };
  // Follows jumps, splits and assertions from `pc` at position `at`, higher priority first.
  const add = (
    list: Threads,
    pc: number,
    start: number,
    registers: Int32Array | undefined,
    at: number,
  ): void => {
    stack.push({ pc, registers });
    while (stack.length > 0) {
      const { pc: p, registers: r } = stack.pop() as (typeof stack)[number];
      let fresh = 0;
      for (const [bit, register] of (enclosing[p] ?? []).entries())
        if (r?.[register] === at) fresh |= 1 << bit;
      const key = p * (1 << MAX_NESTING) + fresh;
      if (list.seen.has(key)) continue;
      list.seen.add(key);
      const instruction = program[p] as Instruction;
      switch (instruction.op) {
        case 'jmp':
          stack.push({ pc: instruction.to, registers: r });
          break;
        case 'split':
          stack.push({ pc: instruction.y, registers: r }, { pc: instruction.x, registers: r });
          break;
        case 'assert':
          if (holds(instruction.kind, at)) stack.push({ pc: p + 1, registers: r });
          break;
        case 'mark': {
          const marked = r ? r.slice() : new Int32Array(count).fill(-1);
          marked[instruction.r] = at;
          stack.push({ pc: p + 1, registers: marked });
          break;
        }
        case 'progress':
          if (r?.[instruction.r] !== at) stack.push({ pc: p + 1, registers: r });
          break;
        default:
          list.pcs.push(p);
          list.starts.push(start);
          list.registers.push(r);
      }
    }
  };
  let found: { start: number; end: number } | undefined;
  current.clear();
  for (let at = 0; ;) {
    if (!found) add(current, 0, at, undefined, at);
    if (found && current.pcs.length === 0) break;
    const cp = at < text.length ? (text.codePointAt(at) ?? 0) : -1;
    const width = cp > 0xffff ? 2 : 1;
    next.clear();
    for (let i = 0; i < current.pcs.length; i++) {
      const pc = current.pcs[i] as number;
      const instruction = program[pc] as Instruction;
      if (instruction.op === 'match') {
        found = { start: current.starts[i] as number, end: at };
        break; // threads after this one have lower priority
      }
      if (instruction.op === 'char' && cp >= 0 && instruction.test(cp))
        add(next, pc + 1, current.starts[i] as number, current.registers[i], at + width);
    }
    if (at >= text.length) break;
    [current, next] = [next, current];
    at += width;
  }
  return found && { index: found.start, text: text.slice(found.start, found.end) };
}

function isLowSurrogateAt(text: string, i: number): boolean {
  const unit = text.charCodeAt(i);
  if (unit < 0xdc00 || unit > 0xdfff || i === 0) return false;
  const lead = text.charCodeAt(i - 1);
  return lead >= 0xd800 && lead <= 0xdbff;
}
