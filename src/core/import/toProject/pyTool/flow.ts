import type { PyToken } from '../../python/tokenize.ts';
import type { PyStatement } from '../../python/statements.ts';
import { Unreadable, oneLine } from './values.ts';

// Early returns, made into branches. Python code often leaves a function from inside a block
// (`if line.roaming_enabled: return "already on"`, or a search loop that returns the row it
// finds). The tool reader follows blocks as conditions, so before it reads a body the body is
// reshaped without changing what it does: what follows an `if` some of whose branches return
// moves into the branches that do not (an `else` is added when there is none), and a loop that
// only searches (`for x in xs: if cond: return e`) becomes an `if any(…)` that binds the item
// found. Afterwards every `return` ends its path. A body that would grow past a bound when the
// tail is copied into branches is refused.

const head = (s: PyStatement | undefined) => s?.tokens[0]?.value;
const MAX_STATEMENTS = 4_000;

/** The body with its early returns made into branches (see above). */
export function liftReturns(statements: readonly PyStatement[]): PyStatement[] {
  const budget = { left: MAX_STATEMENTS };
  return lift(statements, budget);
}

/**
 * A `try` read as a branch: `if <its body would fail>: <handler> else: <body>`; `attempt` is
 * the body, which the reader probes for the ways it fails.
 */
export interface TryBranch extends PyStatement {
  readonly attempt: readonly PyStatement[];
}

function lift(statements: readonly PyStatement[], budget: { left: number }): PyStatement[] {
  const list = tryAsIf(statements.map(oneLine).map(searchAsIf), budget);
  const out: PyStatement[] = [];
  for (let i = 0; i < list.length; i++) {
    const s = list[i] as PyStatement;
    budget.left -= 1;
    if (budget.left < 0) throw new Unreadable('its early returns branch too often to follow');
    // Nothing after a `return` or `raise` in the same block ever runs.
    if (head(s) === 'return' || head(s) === 'raise') {
      out.push(s);
      return out;
    }
    if (head(s) !== 'if') {
      out.push(s.body.length > 0 && head(s) !== 'for' ? { ...s, body: lift(s.body, budget) } : s);
      continue;
    }
    let j = i + 1;
    while (head(list[j]) === 'elif' || head(list[j]) === 'else') j++;
    const chain = list.slice(i, j).map((b) => ({ ...b, body: lift(b.body, budget) }));
    const rest = list.slice(j);
    if (rest.length === 0 || !chain.some((b) => b.body.some(returnsHere))) {
      out.push(...chain);
      i = j - 1;
      continue;
    }
    // What follows runs only on the paths that do not leave: it goes into each of them.
    const branches = chain.map((b) =>
      terminates(b.body) ? b : { ...b, body: lift([...b.body, ...rest], budget) },
    );
    if (head(chain[chain.length - 1]) !== 'else')
      branches.push({
        tokens: [word('else', s), op(':', s)],
        line: s.line,
        body: lift(rest, budget),
      });
    out.push(...branches);
    return out;
  }
  return out;
}

/** A `return` inside a loop, which the reader cannot follow (a search loop is lifted first). */
export function returnsInLoop(s: PyStatement): boolean {
  if (head(s) === 'for' || head(s) === 'while') return s.body.some(containsReturnDeep);
  return s.body.some(returnsInLoop);
}

function containsReturnDeep(s: PyStatement): boolean {
  return head(s) === 'return' || s.body.some(containsReturnDeep);
}

/** A `return` at this level of blocks (not inside a loop, which the reader refuses anyway). */
function returnsHere(s: PyStatement): boolean {
  if (head(s) === 'return') return true;
  if (head(s) === 'for' || head(s) === 'while') return false;
  return s.body.some(returnsHere);
}

/** Every path through the block ends in `return` or `raise`. */
export function terminates(block: readonly PyStatement[]): boolean {
  const last = block[block.length - 1];
  if (last === undefined) return false;
  if (head(last) === 'return' || head(last) === 'raise') return true;
  if (head(last) !== 'else') return false;
  // The if-chain that ends the block: each of its branches must end its path.
  let k = block.length - 1;
  while (k > 0 && (head(block[k]) === 'elif' || head(block[k]) === 'else')) k--;
  if (head(block[k]) !== 'if') return false;
  return block.slice(k).every((b) => terminates(b.body));
}

/**
 * `try: body` with one `except` (and no `else` or `finally`) becomes `if <fails>: handler`,
 * `else: body`. Python keeps what the body changed before it failed; the reader probes only
 * failures, so a body that changes something and then fails reads as if it had not changed it:
 * the tool reader times every change against every check and refuses such orders elsewhere,
 * and here the probe is of a body read dry, whose failures come first in the domains seen.
 */
function tryAsIf(list: readonly PyStatement[], budget: { left: number }): PyStatement[] {
  const out: PyStatement[] = [];
  for (let i = 0; i < list.length; i++) {
    const s = list[i] as PyStatement;
    const handler = list[i + 1];
    if (head(s) !== 'try' || head(handler) !== 'except' || handler === undefined) {
      out.push(s);
      continue;
    }
    const after = head(list[i + 2]);
    if (after === 'except' || after === 'else' || after === 'finally') {
      out.push(s);
      continue;
    }
    const attempt = lift(s.body, budget);
    const branch: TryBranch = {
      tokens: [word('if', s), word('__try__', s), op(':', s)],
      line: handler.line,
      body: handler.body,
      attempt,
    };
    out.push(branch, { tokens: [word('else', s), op(':', s)], line: s.line, body: s.body });
    i++;
  }
  return out;
}

/**
 * `for x in xs:` whose body only searches reads as `if any(cond for x in xs): x = next((x for
 * x in xs if cond), None); return e`, so what follows the loop runs when nothing was found. The
 * body searches when it is made of `if c: return e` and inner loops made of plain assignments
 * then `if c: return e`, every `e` the same; `cond` is then `c1 or any(c2 for y in ys) …`, the
 * inner assignments written into their conditions.
 */
function searchAsIf(s: PyStatement): PyStatement {
  if (head(s) !== 'for') return s;
  const loop = loopParts(s);
  if (loop === undefined) return s;
  const kept = breakSearch(s, loop);
  if (kept !== undefined) return kept;
  const found = searchOf(s.body);
  if (found === undefined) return s;
  const { target, iter } = loop;
  const { cond, ret } = found;
  // Each name of the target bound on its own: `key = next((key for key, row in … if c), None)`.
  const binds = target
    .filter((t) => t.type === 'name')
    .map((name): PyStatement => ({
      tokens: nextInto(
        [name],
        [name, word('for', s), ...target, word('in', s), ...iter, word('if', s), ...cond],
        s,
      ),
      line: s.line,
      body: [],
    }));
  // `any(cond for x in xs)`: the same test the search's `next` says it found a row by.
  const test = [...cond, word('for', s), ...target, word('in', s), ...iter];
  return {
    tokens: [word('if', s), word('any', s), op('(', s), ...test, op(')', s), op(':', s)],
    line: s.line,
    body: [...binds, ret],
  };
}

/**
 * `for x in xs: <assignments>; if c: v = e; break` keeps the first item that meets `c`: it
 * reads as `if any(c for x in xs): v = next((e for x in xs if c), None)`, the assignments
 * written into `c` and `e`; when none does, `v` keeps what it held.
 */
function breakSearch(
  s: PyStatement,
  loop: { target: PyToken[]; iter: PyToken[] },
): PyStatement | undefined {
  const statements = s.body.map(oneLine);
  const last = statements[statements.length - 1];
  if (last === undefined || head(last) !== 'if' || last.body.length !== 2) return undefined;
  const [set, stop] = last.body.map(oneLine);
  if (set === undefined || stop === undefined || head(stop) !== 'break' || stop.tokens.length !== 1)
    return undefined;
  const [kept, eq] = set.tokens;
  if (kept?.type !== 'name' || eq?.value !== '=' || set.body.length > 0) return undefined;
  const names = new Map<string, PyToken[]>();
  for (const a of statements.slice(0, -1)) {
    const [name, is] = a.tokens;
    if (a.body.length > 0 || name?.type !== 'name' || is?.value !== '=') return undefined;
    names.set(name.value, substitute(a.tokens.slice(2), names));
  }
  const cond = substitute(last.tokens.slice(1, -1), names);
  const value = substitute(set.tokens.slice(2), names);
  const { target, iter } = loop;
  const over = [word('for', s), ...target, word('in', s), ...iter];
  const gen = [op('(', s), ...value, op(')', s), ...over, word('if', s), ...cond];
  return {
    tokens: [
      word('if', s),
      word('any', s),
      op('(', s),
      op('(', s),
      ...cond,
      op(')', s),
      ...over,
      op(')', s),
      op(':', s),
    ],
    line: s.line,
    body: [
      {
        tokens: nextInto([kept], gen, s),
        line: set.line,
        body: [],
      },
    ],
  };
}

/**
 * A `for` statement's target, one name or names unpacked (`for key, row in xs.items()`), and
 * what it walks.
 */
function loopParts(s: PyStatement): { target: PyToken[]; iter: PyToken[] } | undefined {
  const tokens = s.tokens.slice(1, -1);
  const inAt = tokens.findIndex((t) => t.type === 'name' && t.value === 'in');
  const target = tokens.slice(0, inAt);
  const names = target.every((t, i) => (i % 2 === 0 ? t.type === 'name' : t.value === ','));
  if (inAt < 1 || inAt % 2 === 0 || !names) return undefined;
  return { target, iter: tokens.slice(inAt + 1) };
}

const text = (tokens: readonly PyToken[]) => tokens.map((t) => t.value).join(' ');

/** A searching loop body's condition (as tokens) and its one `return`, or undefined. */
function searchOf(body: readonly PyStatement[]): { cond: PyToken[]; ret: PyStatement } | undefined {
  const parts: PyToken[][] = [];
  let ret: PyStatement | undefined;
  const same = (r: PyStatement) => ret === undefined || text(ret.tokens) === text(r.tokens);
  for (const raw of body) {
    const st = oneLine(raw);
    if (head(st) === 'if' && st.body.length === 1) {
      const r = st.body[0] as PyStatement;
      if (head(r) !== 'return' || r.tokens.length < 2 || !same(r)) return undefined;
      ret = r;
      parts.push(st.tokens.slice(1, -1));
      continue;
    }
    if (head(st) !== 'for') return undefined;
    const inner = loopParts(st);
    if (inner === undefined) return undefined;
    // Assignments, then one `if c: return e`: the names assigned are written into c.
    const names = new Map<string, PyToken[]>();
    const statements = st.body.map(oneLine);
    const last = statements[statements.length - 1];
    if (last === undefined || head(last) !== 'if' || last.body.length !== 1) return undefined;
    for (const a of statements.slice(0, -1)) {
      const [name, eq] = a.tokens;
      if (a.body.length > 0 || name?.type !== 'name' || eq?.value !== '=') return undefined;
      names.set(name.value, substitute(a.tokens.slice(2), names));
    }
    const r = last.body[0] as PyStatement;
    if (head(r) !== 'return' || r.tokens.length < 2 || !same(r)) return undefined;
    // What is returned must not be the inner loop's own.
    const own = new Set([...inner.target.map((t) => t.value), ...names.keys()]);
    if (r.tokens.some((t) => t.type === 'name' && own.has(t.value))) return undefined;
    ret = r;
    const c = substitute(last.tokens.slice(1, -1), names);
    const at = st;
    parts.push([
      word('any', at),
      op('(', at),
      op('(', at),
      ...c,
      op(')', at),
      word('for', at),
      ...inner.target,
      word('in', at),
      ...inner.iter,
      op(')', at),
    ]);
  }
  if (ret === undefined || parts.length === 0) return undefined;
  const at = ret;
  const cond = parts.flatMap((p, i) => [
    ...(i > 0 ? [word('or', at)] : []),
    op('(', at),
    ...p,
    op(')', at),
  ]);
  return { cond, ret };
}

/** Tokens with each assigned name replaced by its value in parentheses. */
function substitute(tokens: readonly PyToken[], names: ReadonlyMap<string, PyToken[]>): PyToken[] {
  return tokens.flatMap((t, i) => {
    const value = t.type === 'name' ? names.get(t.value) : undefined;
    // Not an attribute name (`x.line`) nor a keyword argument's name.
    const after = tokens[i - 1]?.value === '.';
    if (value === undefined || after) return [t];
    return [
      { ...t, type: 'op' as const, value: '(' },
      ...value,
      { ...t, type: 'op' as const, value: ')' },
    ];
  });
}

/** `target = next((gen), None)`: the first item a generator gives, or None. */
function nextInto(target: readonly PyToken[], gen: readonly PyToken[], at: PyStatement): PyToken[] {
  return [
    ...target,
    op('=', at),
    word('next', at),
    op('(', at),
    op('(', at),
    ...gen,
    op(')', at),
    op(',', at),
    word('None', at),
    op(')', at),
  ];
}

function word(value: string, at: PyStatement): PyToken {
  return { type: 'name', value, line: at.line, start: 0, end: 0 };
}

function op(value: string, at: PyStatement): PyToken {
  return { type: 'op', value, line: at.line, start: 0, end: 0 };
}
