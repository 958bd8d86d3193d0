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
  /**
   * The leftmost match, as `RegExp.exec` would find it: its index and text. Throws
   * `PatternTooCostly` past `MATCH_STEP_BUDGET` steps (`exec` and `test` alike).
   */
  exec(text: string): { readonly index: number; readonly text: string } | undefined;
  test(text: string): boolean;
  /** `test` under a budget of its own, with the steps it took (CEL charges them to its own budget). */
  counted(text: string, budget: number): { readonly matched: boolean; readonly steps: number };
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
    exec: (text) => scoped((budget) => run(program, isWord, text, source, budget)),
    test: (text) => scoped((budget) => run(program, isWord, text, source, budget)) !== undefined,
    counted: (text, budget) => {
      const { found, steps } = run(program, isWord, text, source, budget);
      return { matched: found !== undefined, steps };
    },
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
    if (this.open.length >= MAX_NESTING)
      throw new UnsupportedPattern(
        'Repeats nested this deep',
        0,
        `Repeats nested more than ${MAX_NESTING} deep (like ((a*)*)*) are not supported; write the pattern flatter.`,
      );
    // A register per depth, not per repeat: an iteration's register is read only while it is
    // open, and no other at its depth is open then. A thread copies at most MAX_NESTING of them
    // (one per repeat made `a{1,1000}` copy a thousand at every step).
    const r = this.open.length;
    this.registers = Math.max(this.registers, r + 1);
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
 * nothing yet: threads alike in both behave alike from here on, so only the first is kept. The
 * common key (no repeat fresh) is a stamp per instruction; the rare others go in a set.
 */
class Threads {
  size = 0;
  readonly pcs: number[] = [];
  readonly starts: number[] = [];
  readonly registers: (Int32Array | undefined)[] = [];
  private readonly stamps: Int32Array;
  private stamp = 1;
  private readonly fresh = new Set<number>();
  constructor(program: number) {
    this.stamps = new Int32Array(program);
  }
  clear(): void {
    this.size = 0;
    this.stamp++;
    if (this.fresh.size > 0) this.fresh.clear();
  }
  /** Marks the key as seen; false when it already was. */
  first(pc: number, fresh: number): boolean {
    if (fresh === 0) {
      if (this.stamps[pc] === this.stamp) return false;
      this.stamps[pc] = this.stamp;
      return true;
    }
    const key = pc * (1 << MAX_NESTING) + fresh;
    if (this.fresh.has(key)) return false;
    this.fresh.add(key);
    return true;
  }
  push(pc: number, start: number, registers: Int32Array | undefined): void {
    this.pcs[this.size] = pc;
    this.starts[this.size] = start;
    this.registers[this.size] = registers;
    this.size++;
  }
}

interface Program {
  readonly instructions: readonly Instruction[];
  readonly registers: number;
  readonly enclosing: readonly (readonly number[])[];
}

/**
 * The most steps one match may take (a step: one thread followed at one position). Time is the
 * text's length times the threads alive at once, and a counted repeat keeps a thread per count:
 * `a{1,1000}b` on 20,000 a's is 40 million steps (27 s before this budget). 3 million steps is
 * about 80 ms in Node; an ordinary pattern needs a few steps per character, well under it on the
 * longest answer (200,000 characters: `[a-z]{2,20}@[a-z]+\.com` takes under 2 million).
 */
export const MATCH_STEP_BUDGET = 3_000_000;

/** Steps left to the open `withMatchBudget` scope; undefined: each match has a budget of its own. */
let scopeLeft: number | undefined;

/**
 * Runs `work` with one `MATCH_STEP_BUDGET` shared by every `exec` and `test` in it: one check
 * over every agent message, one call's arguments or one value against its schema, so many
 * texts (a hundred strings of an argument, thirty answers) cannot multiply the budget. A scope
 * inside another shares the outer one.
 */
export function withMatchBudget<T>(work: () => T): T {
  if (scopeLeft !== undefined) return work();
  scopeLeft = MATCH_STEP_BUDGET;
  try {
    return work();
  } finally {
    scopeLeft = undefined;
  }
}

/** One match under the open scope's budget (drawing its steps from it), or a budget of its own. */
function scoped(
  match: (budget: number) => { found: { index: number; text: string } | undefined; steps: number },
): { index: number; text: string } | undefined {
  if (scopeLeft === undefined) return match(MATCH_STEP_BUDGET).found;
  try {
    const { found, steps } = match(scopeLeft);
    scopeLeft -= steps;
    return found;
  } catch (error) {
    if (error instanceof PatternTooCostly) scopeLeft = 0;
    throw error;
  }
}

/** Thrown by `exec` and `test` when matching would take more than `MATCH_STEP_BUDGET` steps. */
export class PatternTooCostly extends Error {
  readonly pattern: string;
  constructor(pattern: string, length: number, shared: boolean) {
    super(
      `The pattern /${pattern}/ was too costly to match on this text of ${length.toLocaleString('en-US')} characters (over ${MATCH_STEP_BUDGET.toLocaleString('en-US')} steps${shared ? ', with the texts the same check or value matched before it' : ''}); large repeat counts like {1,1000} multiply the work.`,
    );
    this.name = 'PatternTooCostly';
    this.pattern = pattern;
  }
}

function run(
  { instructions: program, registers: count, enclosing }: Program,
  isWord: (cp: number) => boolean,
  text: string,
  source: string,
  budget: number,
): { found: { index: number; text: string } | undefined; steps: number } {
  let current = new Threads(program.length);
  let next = new Threads(program.length);
  // The stack of threads still to follow: instruction and registers side by side.
  const stackPc: number[] = [];
  const stackRegisters: (Int32Array | undefined)[] = [];
  let steps = budget;
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
    let top = 0;
    stackPc[top] = pc;
    stackRegisters[top++] = registers;
    while (top > 0) {
      if (--steps < 0)
        throw new PatternTooCostly(
          source,
          text.length,
          scopeLeft !== undefined && budget === scopeLeft && scopeLeft < MATCH_STEP_BUDGET,
        );
      const p = stackPc[--top] as number;
      const r = stackRegisters[top];
      let fresh = 0;
      if (r !== undefined) {
        const around = enclosing[p] as readonly number[];
        for (let bit = 0; bit < around.length; bit++)
          if (r[around[bit] as number] === at) fresh |= 1 << bit;
      }
      if (!list.first(p, fresh)) continue;
      const instruction = program[p] as Instruction;
      switch (instruction.op) {
        case 'jmp':
          stackPc[top] = instruction.to;
          stackRegisters[top++] = r;
          break;
        case 'split':
          stackPc[top] = instruction.y;
          stackRegisters[top++] = r;
          stackPc[top] = instruction.x;
          stackRegisters[top++] = r;
          break;
        case 'assert':
          if (holds(instruction.kind, at)) {
            stackPc[top] = p + 1;
            stackRegisters[top++] = r;
          }
          break;
        case 'mark': {
          const marked = r ? r.slice() : new Int32Array(count).fill(-1);
          marked[instruction.r] = at;
          stackPc[top] = p + 1;
          stackRegisters[top++] = marked;
          break;
        }
        case 'progress':
          if (r?.[instruction.r] !== at) {
            stackPc[top] = p + 1;
            stackRegisters[top++] = r;
          }
          break;
        default:
          list.push(p, start, r);
      }
    }
  };
  let found: { start: number; end: number } | undefined;
  current.clear();
  for (let at = 0; ;) {
    if (!found) add(current, 0, at, undefined, at);
    if (found && current.size === 0) break;
    const cp = at < text.length ? (text.codePointAt(at) ?? 0) : -1;
    const width = cp > 0xffff ? 2 : 1;
    next.clear();
    for (let i = 0; i < current.size; i++) {
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
  return {
    found: found && { index: found.start, text: text.slice(found.start, found.end) },
    steps: budget - steps,
  };
}

function isLowSurrogateAt(text: string, i: number): boolean {
  const unit = text.charCodeAt(i);
  if (unit < 0xdc00 || unit > 0xdfff || i === 0) return false;
  const lead = text.charCodeAt(i - 1);
  return lead >= 0xd800 && lead <= 0xdbff;
}
