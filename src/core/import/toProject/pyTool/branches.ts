import { compileCel, isCelProblem } from '../../../cel.ts';
import type { PyExpr } from '../../python/expression.ts';
import { parsePyExpr, PyExprError } from '../../python/expression.ts';
import type { PyStatement } from '../../python/statements.ts';
import { indexOfTopLevel } from '../../python/statements.ts';
import { negate } from '../requires.ts';
import { type TryBranch, terminates } from './flow.ts';
import {
  type CelValue,
  type Frame,
  Unreadable,
  type Value,
  conflicts,
  containsReturn,
  oneLine,
} from './values.ts';
import { AssignReader } from './assignments.ts';

// Branches and what a body gives back: a body's value as the choice between its branches'
// returns, an `if`'s branches read under their conditions (a local set in a branch made
// conditional), and a branch beyond the reader carried as a path not followed, the reader's
// state put back as it was.

/** Reads branches and returns (see the top of the file). */
export abstract class BranchReader extends AssignReader {
  /** Whether to read what the body returns (a read tool's answer). */
  wantsReturn = false;
  /** Each failure's condition with its loop's variable made anonymous. */
  protected readonly checked = new Set<string>();
  /** A failure for the frame's conditions: the statement reader's. */
  protected abstract override fail(error: string, frame: Frame): void;

  /**
   * Runs a body whose returns end their paths and gives what it returns: the value of its last
   * `return`, or of each branch of the `if` chain that ends it, joined as a choice; `None` when
   * it falls off its end; `never` when every path fails.
   */
  protected bodyValue(statements: readonly PyStatement[], frame: Frame): Value {
    const list = statements.map(oneLine);
    const last = list[list.length - 1];
    const lastHead = last?.tokens[0]?.value;
    if (last === undefined) return this.cel('null', []);
    if (lastHead === 'return') {
      this.block(list.slice(0, -1), frame);
      if (this.depth === 0) this.line = last.line + this.firstLine - 1;
      if (last.tokens.length === 1 || (this.depth === 0 && !this.wantsReturn))
        return this.cel('null', []);
      const returned = parsePyExpr(last.tokens.slice(1));
      if (callsSelf(returned)) return this.expr(returned, frame);
      // A value nobody uses need not be readable (a helper called for what it changes); a
      // tuple's items each on their own (`return False, f"…"`).
      const lazily = (e: PyExpr): Value => {
        try {
          return this.expr(e, frame);
        } catch (error) {
          if (error instanceof Unreadable) return { k: 'unset', why: error.message };
          throw error;
        }
      };
      return returned.t === 'tuple'
        ? { k: 'tuple', items: returned.items.map(lazily) }
        : lazily(returned);
    }
    if (lastHead === 'raise') {
      this.block(list, frame);
      return { k: 'never' };
    }
    let k = list.length - 1;
    while (k > 0 && ['elif', 'else'].includes(list[k]?.tokens[0]?.value ?? '')) k--;
    const chain = list.slice(k);
    const branching = ['if', 'elif', 'else'].includes(lastHead ?? '') && chain.some(containsReturn);
    if (!branching || list[k]?.tokens[0]?.value !== 'if') {
      this.block(list, frame);
      return this.cel('null', []);
    }
    this.block(list.slice(0, k), frame);
    const outcomes: Array<{ cond: CelValue | undefined; value: Value }> = [];
    let before: CelValue[] = [];
    for (const branch of chain) {
      if (this.depth === 0) this.line = branch.line + this.firstLine - 1;
      const kind = branch.tokens[0]?.value;
      const cond = kind === 'else' ? undefined : this.condition(branch, frame);
      const when = [...frame.when, ...before.map((c) => this.not(c)), ...(cond ? [cond] : [])];
      let value: Value = { k: 'never' };
      const inner = { ...frame, locals: new Map(frame.locals), when };
      this.orNotFollowed(when, frame, () => {
        value = this.bodyValue(branch.body, inner);
      });
      outcomes.push({ cond, value });
      if (cond) before = [...before, cond];
    }
    // Without an `else`, the path that takes no branch falls off the end: None.
    if (lastHead !== 'else') outcomes.push({ cond: undefined, value: this.cel('null', []) });
    return this.choice(outcomes);
  }

  /**
   * What a branch that never goes on (not carried, or it always fails) tells of what follows it:
   * `if not row: raise …` leaves a row that is there.
   */
  private knownAfter(when: readonly CelValue[], frame: Frame): void {
    const taken = this.all(when.slice(frame.when.length)).cel;
    for (const [name, value] of frame.locals)
      if (value.k === 'place' && value.exists !== undefined && taken === negate(value.exists)) {
        const { exists: _there, ...found } = value;
        frame.locals.set(name, found);
      }
  }

  /**
   * Reads a branch; when its body is beyond the reader, the reader's state is put back as it was
   * and the tool is carried without that path: where the branch's conditions hold, a call is an
   * error of the project (a `not_imported` precondition), never a silent wrong change. Tells
   * whether the branch was read.
   */
  protected orNotFollowed(when: readonly CelValue[], frame: Frame, read: () => void): boolean {
    if (frame.dry || frame.probe) {
      read();
      return true;
    }
    const saved = this.snapshot(frame);
    try {
      read();
      return true;
    } catch (error) {
      if (!(error instanceof Unreadable) && !(error instanceof PyExprError)) throw error;
      this.restore(saved, frame);
      const cond = this.all(when.slice(frame.when.length));
      const written = new Set([
        ...this.effects.flatMap((e) => [...e.writes]),
        ...this.pendingWrites(),
      ]);
      // The path's condition is checked before any change: it must read what Python read then.
      if (conflicts(cond.reads.keys(), written) || frame.loop) throw error;
      const whole = this.all([...frame.when, cond]);
      const condition = this.not(whole).cel;
      // A path every call takes is the tool itself: not carried at all.
      if (whole.cel === 'true' || isCelProblem(compileCel(condition))) throw error;
      this.requires.push({
        condition,
        error: `PolicyLab could not follow the path at line ${this.line}: ${error.message}`,
        not_imported: true,
      });
      this.notes.push(
        `Not carried on one path (line ${this.line}): ${error.message}. A call that takes it is an error of the project.`,
      );
      return false;
    }
  }

  private snapshot(frame: Frame) {
    const g = this.group;
    return {
      effects: this.effects.length,
      requires: this.requires.length,
      notes: this.notes.length,
      group: g && {
        ...g,
        sets: new Map(g.sets),
        nested: new Map(
          [...g.nested].map(([k, v]) => [k, { place: v.place, fields: new Map(v.fields) }]),
        ),
        used: [...g.used],
        appends: new Set(g.appends),
      },
      epoch: this.epoch,
      groups: this.groups,
      names: new Set(this.names),
      checked: new Set(this.checked),
      locals: new Map(frame.locals),
      line: this.line,
    };
  }

  private restore(saved: ReturnType<BranchReader['snapshot']>, frame: Frame): void {
    this.effects.length = saved.effects;
    this.requires.length = saved.requires;
    this.notes.length = saved.notes;
    this.group = saved.group;
    this.epoch = saved.epoch;
    this.groups = saved.groups;
    this.names.clear();
    for (const n of saved.names) this.names.add(n);
    this.checked.clear();
    for (const c of saved.checked) this.checked.add(c);
    frame.locals.clear();
    for (const [k, v] of saved.locals) frame.locals.set(k, v);
  }

  /** Branch values joined: `c1 ? v1 : (c2 ? v2 : v3)`, leaving out the branches that fail. */
  private choice(outcomes: ReadonlyArray<{ cond: CelValue | undefined; value: Value }>): Value {
    const live = outcomes.filter((o) => o.value.k !== 'never');
    if (live.length === 0) return { k: 'never' };
    if (live.length === 1) {
      const only = live[0] as { cond: CelValue | undefined; value: Value };
      // A row found by a search, on the one path that goes on: it is there.
      if (
        only.value.k === 'place' &&
        only.value.exists !== undefined &&
        only.value.exists === only.cond?.cel
      ) {
        const { exists: _found, ...place } = only.value;
        return place;
      }
      return only.value;
    }
    // Tuples of one length: a choice item by item.
    const tuples = live.map((o) => o.value);
    const size = tuples[0]?.k === 'tuple' ? tuples[0].items.length : -1;
    if (tuples.every((v) => v.k === 'tuple' && v.items.length === size))
      return {
        k: 'tuple',
        items: Array.from({ length: size }, (_, i) =>
          this.choice(
            live.map((o) => ({
              cond: o.cond,
              value: (o.value as { readonly items: readonly Value[] }).items[i] as Value,
            })),
          ),
        ),
      };
    const [first, ...others] = live as Array<{ cond: CelValue | undefined; value: Value }>;
    // A branch known not to be taken, or known to be.
    if (first?.cond?.cel === 'false') return this.choice(others);
    if (first?.cond?.cel === 'true') return first.value;
    // A value that could not be read stays unread until something uses it.
    const unread = live.find((o) => o.value.k === 'unset')?.value;
    if (unread !== undefined) return unread;
    const otherwise = this.choice(others);
    // A row or a value in one (found) or None: still a live place, there when the branch holds.
    const none = (v: Value) => v.k === 'cel' && v.cel === 'null';
    if (first?.cond !== undefined && others.length === 1) {
      const [a, b] = [first.value, otherwise];
      const place = a.k === 'place' && none(b) ? a : b.k === 'place' && none(a) ? b : undefined;
      if (place !== undefined) {
        const holds = place === a ? first.cond : this.not(first.cond);
        const exists =
          place.exists === undefined ? holds.cel : `(${holds.cel}) && (${place.exists})`;
        return { ...place, exists };
      }
    }
    const then = this.celOf(first?.value as Value);
    const rest = this.celOf(otherwise);
    if (first?.cond === undefined) return then;
    return this.ternary(first.cond, then, rest);
  }

  protected condition(statement: PyStatement, frame: Frame): CelValue {
    // A `try` made into a branch (`liftReturns`): its handler runs when its body would fail.
    if ('attempt' in statement) {
      const probe = { fails: [] as CelValue[], wrote: false };
      const attempt = (statement as TryBranch).attempt;
      this.block(attempt, { ...frame, locals: new Map(frame.locals), dry: true, probe });
      const fails = probe.fails;
      if (fails.length === 0) return this.cel('false', []);
      return this.cel(fails.map((p) => `(${p.cel})`).join(' || '), fails);
    }
    const tokens = statement.tokens.slice(1, -1);
    return this.bool(this.expr(parsePyExpr(tokens), frame));
  }

  /** The body of an `if`/`elif`/`else`, run under its conditions. */
  protected branch(statement: PyStatement, when: CelValue[], frame: Frame, last = false): void {
    const before = new Map(frame.locals);
    const followed = this.orNotFollowed(when, frame, () => {
      this.block(statement.body, { ...frame, when });
    });
    if (!followed) {
      this.knownAfter(when, frame);
      return;
    }
    // A local set only in a branch keeps its value when the branch ran, else the one before.
    for (const [name, value] of frame.locals) {
      const old = before.get(name);
      if (old === value) continue;
      // Built up by the loop around this branch: its items are already only those of the
      // iterations that took the branch (`frame.when` filters them).
      if (value.k === 'cel' && this.accumulated.has(value)) continue;
      // None before, a row after: the row, there when the branch ran.
      if (old?.k === 'cel' && old.cel === 'null' && value.k === 'place') {
        const ran = this.all(when.slice(frame.when.length));
        const exists = value.exists === undefined ? ran.cel : `(${ran.cel}) && (${value.exists})`;
        frame.locals.set(name, { ...value, exists });
        continue;
      }
      // Set first in a branch: a value for the paths through the branches so far, complete
      // when the chain's `else` sets it too (`if c: f = 0.1` / `else: f = 1.0`).
      if ((old === undefined || (old.k === 'unset' && old.partial)) && value.k === 'cel') {
        const here = this.all(when.slice(frame.when.length));
        const sofar = old?.k === 'unset' ? old.partial : undefined;
        const merged = sofar ? this.ternary(sofar.cond, sofar.value, value) : value;
        if (last) {
          frame.locals.set(name, merged);
          continue;
        }
        const cond = sofar
          ? this.cel(`(${sofar.cond.cel}) || (${here.cel})`, [sofar.cond, here])
          : here;
        frame.locals.set(name, {
          k: 'unset',
          why: `"${name}" is set only in a branch`,
          partial: { cond, value: merged },
        });
        continue;
      }
      if (old === undefined || old.k !== 'cel' || value.k !== 'cel') {
        frame.locals.set(name, { k: 'unset', why: `"${name}" is set only in a branch` });
        continue;
      }
      const cond = this.all(when.slice(frame.when.length));
      frame.locals.set(name, this.ternary(cond, value, old));
    }
    if (terminates(statement.body.map(oneLine).filter((x) => x.tokens[0]?.value !== 'return')))
      this.knownAfter(when, frame);
  }
}

export function assignedUnderIf(statements: readonly PyStatement[], inside = false): Set<string> {
  const names = new Set<string>();
  for (const statement of statements.map(oneLine)) {
    const head = statement.tokens[0]?.value ?? '';
    const branch = ['if', 'elif', 'else'].includes(head);
    if (inside && statement.body.length === 0) {
      const assign = indexOfTopLevel(statement.tokens, '=');
      const first = statement.tokens[0];
      if (assign === 1 && first?.type === 'name') names.add(first.value);
    }
    for (const name of assignedUnderIf(statement.body, inside || branch)) names.add(name);
  }
  return names;
}

/** Whether an expression calls a method of `self` (whose changes must not be half read). */
export function callsSelf(e: PyExpr): boolean {
  const parts: PyExpr[] = [];
  switch (e.t) {
    case 'call':
      if (e.fn.t === 'attr' && e.fn.obj.t === 'name' && e.fn.obj.name === 'self') return true;
      parts.push(e.fn, ...e.args, ...e.kwargs.map(([, v]) => v));
      break;
    case 'attr':
      parts.push(e.obj);
      break;
    case 'index':
      parts.push(e.obj, e.index);
      break;
    case 'bin':
    case 'bool':
    case 'cmp':
      parts.push(e.left, e.right);
      break;
    case 'neg':
    case 'not':
      parts.push(e.x);
      break;
    case 'if':
      parts.push(e.cond, e.then, e.else);
      break;
    case 'list':
    case 'tuple':
    case 'set':
      parts.push(...e.items);
      break;
    case 'dict':
      parts.push(...e.entries.flat());
      break;
    case 'comp':
      parts.push(e.iter, e.item, ...(e.cond ? [e.cond] : []));
      break;
    case 'slice':
      parts.push(e.obj, ...(e.lower ? [e.lower] : []), ...(e.upper ? [e.upper] : []));
      break;
    case 'lambda':
      parts.push(e.body);
      break;
    default:
      break;
  }
  return parts.some(callsSelf);
}

/** `logger.info(…)`, `logging.debug(…)`, `print(…)`: a call that only writes a log. */
export function isLogging(fn: PyExpr): boolean {
  if (fn.t === 'name') return fn.name === 'print';
  return (
    fn.t === 'attr' &&
    fn.obj.t === 'name' &&
    /^(logger|logging|log|LOGGER|_logger)$/.test(fn.obj.name) &&
    ['debug', 'info', 'warning', 'warn', 'error', 'exception', 'critical'].includes(fn.name)
  );
}
