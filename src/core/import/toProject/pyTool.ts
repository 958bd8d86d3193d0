import { compileCel, isCelProblem } from '../../cel.ts';
import type { JsonSchema, PyKnown } from '../domain.ts';
import type { PyExpr } from '../python/expression.ts';
import { parsePyExpr, PyExprError } from '../python/expression.ts';
import type { PyFunction } from '../python/module.ts';
import { readPythonModule } from '../python/module.ts';
import type { PyStatement } from '../python/statements.ts';
import { indexOfTopLevel } from '../python/statements.ts';
import type { TablePlan } from './database.ts';
import { ChangeReader } from './pyTool/changes.ts';
import { type TryBranch, liftReturns, returnsInLoop, terminates } from './pyTool/flow.ts';
import { negate } from './requires.ts';
import {
  type CelValue,
  type Frame,
  IDENT,
  type Kits,
  type Loop,
  type Place,
  type ToolProgram,
  Unreadable,
  type Value,
  celName,
  celOfEffect,
  conflicts,
  containsReturn,
  isStructured,
  itemSchema,
  mapLiteral,
  numericOf,
  oneLine,
  onlyAnswers,
} from './pyTool/values.ts';

// A write tool's Python body read as what it does: the failures it raises (preconditions) and
// the changes it makes (effects), by following the body symbolically, never running it. Rows the
// body looks up (`self.db.orders[order_id]`, or through a helper such as `self._get_order`) are
// live places; a field set on one, deep inside a list or map column, becomes an `update` of that
// row built with `put`/`setAt`/`merge`. Loops over a list become `for_each` (or `.all(…)` for
// failures), `if` around a change becomes `when`, a sum kept in a loop becomes `sum(….map(…))`.
// Anything outside that subset, or any order of reads and writes the format's effects would not
// reproduce, makes the whole tool not carried, with the reason.
//
// The reader is built in layers, one file each under `pyTool/`: what it knows and gathers, with
// the small steps all layers take (`base.ts`); expressions as CEL values and live places
// (`expressions.ts`); changes gathered into effects (`changes.ts`); and the statements that drive
// them (here). The shapes they share and small pure pieces are in `values.ts`.

export type { ToolProgram } from './pyTool/values.ts';

/**
 * Reads a write tool's body (and the helpers it calls) as preconditions and effects over the
 * project's tables. `parameters` are the tool's arguments; `tables` the planned tables, by their
 * source name for `self.db.<name>`.
 */
export function programOf(
  body: string,
  helpers: Readonly<Record<string, string>>,
  parameters: { properties: Record<string, JsonSchema> },
  tables: readonly TablePlan[],
  firstLine = 1,
  options: {
    readonly returns?: boolean;
    readonly known?: PyKnown;
    readonly kits?: Kits;
    /** The toolkit class's attributes with a value (`self.default_vpn_details`), as source. */
    readonly attributes?: Readonly<Record<string, string>>;
    /**
     * Carry a failure that only a changed call reaches as one checked first, with a note, rather
     * than refuse the body (for a guard against a broken scenario, as in `sync_tools`).
     */
    readonly failuresFirst?: boolean;
  } = {},
): ToolProgram {
  const fn = readPythonModule(body).functions[0];
  if (fn === undefined) return { reason: 'its body could not be read' };
  try {
    const reader = new Reader(helpers, parameters, tables, firstLine, options.known ?? {});
    reader.wantsReturn = options.returns === true;
    reader.kits = options.kits;
    reader.attributes = options.attributes ?? {};
    reader.failuresFirst = options.failuresFirst === true;
    return reader.run(fn);
  } catch (error) {
    if (error instanceof Unreadable || error instanceof PyExprError)
      return { reason: error.message };
    throw error;
  }
}

class Reader extends ChangeReader {
  /** Whether a failure reached only after a change is carried as checked first (`programOf`). */
  failuresFirst = false;
  /** Whether to read what the body returns (a read tool's answer) into `returned`. */
  wantsReturn = false;
  private returned: string | undefined;

  run(fn: PyFunction): ToolProgram {
    const locals = new Map<string, Value>([['self', { k: 'self' }]]);
    for (const name of Object.keys(this.parameters.properties)) {
      const schema = this.parameters.properties[name];
      // An argument whose default is None (`default: null`) may be left out: it reads as null.
      locals.set(name, {
        k: 'cel',
        cel:
          schema?.default === null ? `(has(args.${name}) ? args.${name} : null)` : `args.${name}`,
        reads: new Map(),
        at: 0,
        born: 0,
        deps: [],
        ...(schema && { schema }),
        ...numericOf(schema),
      });
    }
    const body = liftReturns(fn.body);
    if (body.some(returnsInLoop)) throw new Unreadable('it returns from inside a loop');
    const value = this.bodyValue(body, { locals, when: [], dry: false });
    if (this.wantsReturn) {
      if (value.k === 'never') throw new Unreadable('it fails whatever the arguments');
      this.returned = this.celOf(value).cel;
    }
    this.flush();
    const effects = this.effects.map(({ writes: _w, epoch: _e, ...effect }) => effect);
    for (const effect of effects)
      for (const cel of celOfEffect(effect))
        if (isCelProblem(compileCel(cel)))
          throw new Unreadable(`a change it makes does not compile as CEL (${cel.slice(0, 80)}…)`);
    for (const r of this.requires)
      if (isCelProblem(compileCel(r.condition)))
        throw new Unreadable(`a failure's condition does not compile as CEL`);
    if (this.returned !== undefined && isCelProblem(compileCel(this.returned)))
      throw new Unreadable('what it returns does not compile as CEL');
    return {
      requires: this.requires,
      effects,
      notes: this.notes,
      inert: onlyAnswers(fn.body),
      ...(this.returned !== undefined && { returns: this.returned }),
    };
  }

  // ---- statements ----

  protected block(statements: readonly PyStatement[], frame: Frame): void {
    let chain: CelValue[] = [];
    for (const statement of statements.map(oneLine)) {
      if (this.depth === 0) this.line = statement.line + this.firstLine - 1;
      const head = statement.tokens[0]?.value;
      if (head === 'elif' || head === 'else') {
        if (chain.length === 0) throw new Unreadable(`an "${head}" without its "if"`);
        const before = chain.map((c) => this.not(c));
        if (head === 'else') {
          this.branch(statement, [...frame.when, ...before], frame, true);
          chain = [];
        } else {
          const cond = this.condition(statement, frame);
          this.branch(statement, [...frame.when, ...before, cond], frame);
          chain = [...chain, cond];
        }
        continue;
      }
      chain = [];
      if (head === 'if') {
        const cond = this.condition(statement, frame);
        this.branch(statement, [...frame.when, cond], frame);
        chain = [cond];
      } else if (head === 'for') this.loop(statement, frame);
      else this.simple(statement, frame);
    }
  }

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

  private restore(saved: ReturnType<Reader['snapshot']>, frame: Frame): void {
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

  protected simple(statement: PyStatement, frame: Frame): void {
    const tokens = statement.tokens;
    const head = tokens[0];
    if (head === undefined || head.value === 'pass') return;
    if (head.type === 'string' && tokens.length === 1) return; // a docstring
    // A `return` ends its path (`liftReturns`); what it gives is read by `bodyValue`.
    if (head.value === 'return') return;
    if (head.value === 'raise') {
      this.raise(statement, frame);
      return;
    }
    if (head.value === 'assert') {
      // `assert cond, message`: the call fails with AssertionError where cond does not hold.
      const comma = indexOfTopLevel(tokens, ',');
      const cond = this.bool(
        this.expr(parsePyExpr(tokens.slice(1, comma > 0 ? comma : undefined)), frame),
      );
      const message = comma > 0 ? parsePyExpr(tokens.slice(comma + 1)) : undefined;
      const text =
        message?.t === 'str' && !message.fstring ? message.value : 'An assertion failed.';
      if (frame.dry && !frame.probe) return;
      this.fail(text, { ...frame, when: [...frame.when, this.not(cond)] });
      return;
    }
    if (['del', 'global', 'nonlocal', 'with', 'while', 'try', 'import'].includes(head.value))
      throw new Unreadable(`it uses "${head.value}" (line ${this.line})`);
    const assign = indexOfTopLevel(tokens, '=');
    const augment = tokens.findIndex(
      (t) => t.type === 'op' && ['+=', '-=', '*=', '/='].includes(t.value),
    );
    if (assign > 0) {
      const target = parsePyExpr(tokens.slice(0, assign));
      const value = this.expr(parsePyExpr(tokens.slice(assign + 1)), frame);
      this.assign(target, value, frame);
      return;
    }
    if (augment > 0) {
      const target = parsePyExpr(tokens.slice(0, augment));
      const op = (tokens[augment]?.value.slice(0, 1) ?? '+') as '+' | '-' | '*' | '/';
      const right = parsePyExpr(tokens.slice(augment + 1));
      this.augment(target, op, right, frame);
      return;
    }
    const expr = parsePyExpr(tokens);
    // Logging and printing change nothing the project keeps.
    if (expr.t === 'call' && isLogging(expr.fn)) return;
    if (expr.t === 'call' && expr.fn.t === 'attr' && ['append', 'extend'].includes(expr.fn.name)) {
      this.extend(expr.fn.obj, expr.fn.name, expr.args, frame);
      return;
    }
    // A call for its own sake: a helper's failures count; anything else changes nothing we see.
    this.expr(expr, frame);
  }

  protected raise(statement: PyStatement, frame: Frame): void {
    if (frame.dry && !frame.probe) return;
    if (frame.when.length === 0 && !frame.probe)
      throw new Unreadable(`it fails whatever the arguments (line ${this.line})`);
    const call = parsePyExpr(statement.tokens.slice(1));
    const message = call.t === 'call' ? call.args[0] : undefined;
    const error =
      message?.t === 'str' ? message.value.replace(/^error:\s*/i, '').trim() : 'The call failed.';
    if (message?.t === 'str' && message.fstring)
      this.notes.push(
        `"${error}" names values of the call; the message keeps their names in braces.`,
      );
    this.fail(error || 'The call failed.', frame);
  }

  /** The call fails with `error` when the frame's conditions hold (checked before any change). */
  protected fail(error: string, frame: Frame): void {
    if (frame.probe?.scan) return;
    if (frame.probe) {
      // Python keeps what a `try` body changed before it failed; the branch would not.
      if (frame.probe.wrote)
        throw new Unreadable(`a "try" whose body may fail after a change (line ${this.line})`);
      const cond = frame.when.length === 0 ? this.cel('true', []) : this.all(frame.when);
      // Inside a comprehension, the body fails when some item makes it fail.
      const some = (frame.scopes ?? []).reduceRight(
        (inner, scope) => `${scope.list}.exists(${scope.as}, ${inner})`,
        cond.cel,
      );
      frame.probe.fails.push(some === cond.cel ? cond : this.cel(some, [cond]));
      return;
    }
    if (frame.dry) return;
    const cond = this.all(frame.when);
    if (cond.cel === 'false') return;
    // A failure after a change would read the changed data; the format checks failures first.
    const written = new Set([
      ...this.effects.flatMap((e) => [...e.writes]),
      ...this.pendingWrites(),
    ]);
    if (conflicts(cond.reads.keys(), written)) {
      this.notes.push(
        `"${error}" (line ${this.line}) is checked after a change; it is not carried.`,
      );
      return;
    }
    const loop = frame.loop;
    const holds = this.not(cond).cel;
    // Inside a comprehension, every item must pass (Python's any() may stop at a match first:
    // an item after it that would fail fails here too), then every item of the loop.
    const scoped = (frame.scopes ?? []).reduceRight(
      (inner, scope) => `${scope.list}.all(${scope.as}, ${inner})`,
      holds,
    );
    const condition = loop ? `${loop.list}.all(${loop.as}, ${scoped})` : scoped;
    // The same check made again (a loop over the same list, its variable named anew) is one.
    const canon = loop ? condition.replace(new RegExp(`\\b${loop.as}\\b`, 'g'), '§') : condition;
    if (this.requires.some((r) => r.condition === condition) || this.checked.has(canon)) return;
    this.checked.add(canon);
    // Python keeps what a call changed before it failed; the format checks failures first, so a
    // failure that only a changed call can reach is not carried (one checked before is fine).
    if (this.effects.length > 0 || this.pendingWrites().length > 0) {
      if (!this.failuresFirst) {
        // Python keeps the changes before it: that path is not carried (checked first, its
        // condition reading nothing the body changed, as `conflicts` made sure above).
        this.requires.push({
          condition,
          error: `PolicyLab could not follow the path at line ${this.line}: it fails ("${error}") after a change, which Python keeps`,
          not_imported: true,
        });
        this.notes.push(
          `Not carried on one path (line ${this.line}): "${error}" after a change, which Python keeps. A call that takes it is an error of the project.`,
        );
        return;
      }
      this.notes.push(
        `"${error}" (line ${this.line}) is checked before any change here; Python makes the changes before it first, and keeps them when it fails.`,
      );
    }
    const requirement = { condition, error };
    this.requires.push(requirement);
    loop?.requires.push({ requirement, reads: new Set(cond.reads.keys()) });
  }

  /** Whether a loop's body writes anything (read once, dry; what it cannot read counts as yes). */
  private loopWrites(
    statement: PyStatement,
    frame: Frame,
    bind: (locals: Map<string, Value>, at: (list: CelValue) => string, name: string) => CelValue,
  ): boolean {
    const scan = { fails: [] as CelValue[], wrote: false, scan: true as const };
    const locals = new Map(frame.locals);
    const names = new Set(this.names);
    const groups = this.groups;
    try {
      bind(locals, () => 'item', 'item');
      // As a loop of its own (so that a loop inside it is refused, as the real reading does).
      const loop: Loop = { list: '[]', as: 'item', epoch: this.epoch, effects: 0, requires: [] };
      this.block(statement.body, { locals, when: frame.when, dry: true, probe: scan, loop });
    } catch (error) {
      if (!(error instanceof Unreadable) && !(error instanceof PyExprError)) throw error;
      return true;
    } finally {
      // The scan leaves no trace: names it took are free again.
      this.names.clear();
      for (const n of names) this.names.add(n);
      this.groups = groups;
    }
    return scan.wrote;
  }

  /** Each failure's condition with its loop's variable made anonymous. */
  private readonly checked = new Set<string>();

  protected loop(statement: PyStatement, frame: Frame): void {
    if (frame.loop) throw new Unreadable(`a loop inside a loop (line ${this.line})`);
    const tokens = statement.tokens.slice(1, -1);
    const inAt = tokens.findIndex((t) => t.type === 'name' && t.value === 'in');
    const targets = tokens
      .slice(0, inAt)
      .filter((t) => !(t.type === 'op' && t.value === ','))
      .map((t) => t.value);
    if (inAt < 1 || !targets.every((t) => IDENT.test(t)))
      throw new Unreadable(`a loop over a pattern (line ${this.line})`);
    const iter = parsePyExpr(tokens.slice(inAt + 1));
    const bind = (locals: Map<string, Value>, at: (list: CelValue) => string, name: string) => {
      if (iter.t === 'call' && iter.fn.t === 'name' && iter.fn.name === 'zip') {
        const lists = iter.args.map((a) => this.list(this.expr(a, frame)));
        if (lists.length !== targets.length) throw new Unreadable(`a zip unpacked unevenly`);
        lists.forEach((list, j) =>
          locals.set(
            targets[j] ?? '',
            this.cel(`${list.cel}[${name}]`, [list], itemSchema(list.schema)),
          ),
        );
        return this.cel(`range(min([${lists.map((l) => `size(${l.cel})`).join(', ')}]))`, lists);
      }
      if (targets.length !== 1) throw new Unreadable(`a loop that unpacks (line ${this.line})`);
      const list = this.list(this.expr(iter, frame));
      locals.set(targets[0] ?? '', this.cel(at(list), [list], itemSchema(list.schema)));
      return list;
    };
    const zip = iter.t === 'call' && iter.fn.t === 'name' && iter.fn.name === 'zip';
    // A loop that changes something is its own effect: the pending change is written first. One
    // that only reads (a list built up, a total kept) leaves it pending.
    const writing = !frame.dry && this.loopWrites(statement, frame, bind);
    if (writing) {
      this.flush();
      this.epoch++;
    }
    const name = zip ? this.fresh('i') : celName(targets[0] ?? 'x');
    const locals = frame.locals;
    const list = bind(locals, () => name, name);
    const loop: Loop = { list: list.cel, as: name, epoch: this.epoch, effects: 0, requires: [] };
    const before = new Map(locals);
    this.block(statement.body, {
      locals,
      when: frame.when,
      loop,
      dry: frame.dry,
      ...(frame.probe && { probe: frame.probe }),
    });
    const writes = writing ? this.flush() : new Set<string>();
    // A failure the loop checks after changing what it reads would see the change in Python.
    for (const { requirement, reads } of loop.requires)
      if (conflicts(reads, writes)) {
        this.requires.splice(this.requires.indexOf(requirement), 1);
        this.notes.push(
          `"${requirement.error}" is checked in a loop that changes what it reads; it is not carried.`,
        );
      }
    // Python's loop variables keep their last item after the loop: read the body once more, dry,
    // with the last item bound, for the locals it sets.
    const after = new Map(before);
    const last = `(size(${list.cel}) - 1)`;
    bind(after, (l) => `${l.cel}[${last}]`, last);
    this.block(statement.body, { locals: after, when: frame.when, dry: true });
    // A local the loop sets only under an `if` holds what some earlier item left: not followed.
    const guarded = assignedUnderIf(statement.body);
    for (const [local, value] of after)
      if (guarded.has(local) && !this.accumulated.has(locals.get(local) as CelValue))
        locals.set(local, { k: 'unset', why: `"${local}" is set in a loop under an "if"` });
      else if (!locals.has(local) || before.get(local) === locals.get(local))
        locals.set(local, value);
      else if (!this.accumulated.has(locals.get(local) as CelValue)) locals.set(local, value);
  }

  protected readonly accumulated = new WeakSet<CelValue>();

  protected assign(target: PyExpr, value: Value, frame: Frame): void {
    if (target.t === 'tuple') {
      // `a, b = …`: a tuple item by item; a list by index.
      target.items.forEach((item, i) => {
        const part: Value =
          value.k === 'tuple'
            ? (value.items[i] ?? { k: 'unset', why: 'a tuple unpacked unevenly' })
            : this.cel(`${this.celOf(value).cel}[${i}]`, [this.celOf(value)]);
        this.assign(item, part, frame);
      });
      if (value.k === 'tuple' && value.items.length !== target.items.length)
        throw new Unreadable(`a tuple unpacked unevenly (line ${this.line})`);
      return;
    }
    if (target.t === 'name') {
      // A scalar read off a row is a copy in Python; a list or object stays a live reference.
      frame.locals.set(
        target.name,
        value.k === 'place' && !isStructured(value.schema) && value.exists === undefined
          ? this.read(value)
          : value,
      );
      return;
    }
    if (target.t === 'attr') {
      this.setField(target, value, frame);
      return;
    }
    if (target.t === 'index') {
      const table = this.expr(target.obj, frame);
      if (table.k === 'table') {
        this.insert(table.table, this.celOf(this.expr(target.index, frame)), value, frame);
        return;
      }
    }
    throw new Unreadable(`it assigns to "${target.t}" (line ${this.line})`);
  }

  protected setField(target: Extract<PyExpr, { t: 'attr' }>, value: Value, frame: Frame): void {
    if (this.changeLocalModel(target, frame, () => this.celOf(value))) return;
    // A field of a column this change has just set whole (`d.vpn = VpnDetails(…)`, then
    // `d.vpn.performance = …`): the column's new value with that field replaced.
    if (target.obj.t === 'attr') {
      const row = this.expr(target.obj.obj, frame);
      const column = target.obj.name;
      if (row.k === 'place' && row.steps.length === 0 && this.pending(row, column) !== undefined) {
        const next = this.celOf(value);
        this.write(
          row,
          column,
          (current) =>
            this.cel(`merge(${current.cel}, ${mapLiteral([[target.name, next.cel]])})`, [
              current,
              next,
            ]),
          frame,
        );
        return;
      }
    }
    const owner = this.placeOf(target.obj, frame, 'sets a field of');
    this.write(owner, target.name, () => this.celOf(value), frame);
  }

  /**
   * A field of a model the body built and keeps in a local (`bill = Bill(…)`, then
   * `bill.total_due += amount` before it is added): the local is the model with that field
   * changed. Tells whether `target` was such a field.
   */
  protected changeLocalModel(
    target: Extract<PyExpr, { t: 'attr' }>,
    frame: Frame,
    next: (current: CelValue) => CelValue,
  ): boolean {
    if (target.obj.t !== 'name') return false;
    const local = frame.locals.get(target.obj.name);
    if (local?.k !== 'cel' || local.fields === undefined) return false;
    const current = local.fields.get(target.name) ?? this.cel('null', []);
    const fields = new Map(local.fields).set(target.name, next(current));
    const cel = mapLiteral([...fields].map(([k, v]) => [k, v.cel]));
    frame.locals.set(target.obj.name, {
      ...this.cel(cel, [...fields.values()], local.schema),
      fields,
    });
    return true;
  }

  /** What `expr` names, which must be in the database: a row or something inside one. */
  protected placeOf(expr: PyExpr, frame: Frame, doing: string): Place {
    const owner = this.expr(expr, frame);
    if (owner.k !== 'place')
      throw new Unreadable(`it ${doing} something not in the database (line ${this.line})`);
    return owner;
  }

  protected augment(target: PyExpr, op: '+' | '-' | '*' | '/', right: PyExpr, frame: Frame): void {
    if (target.t === 'name') {
      const old = frame.locals.get(target.name);
      if (old === undefined || old.k !== 'cel')
        throw new Unreadable(`"${target.name}" is changed before it is set`);
      const value = this.celOf(this.expr(right, frame));
      if (frame.loop && !frame.dry) {
        if (op === '*' || op === '/')
          throw new Unreadable(`"${target.name}" is multiplied in a loop (line ${this.line})`);
        // A running total over the loop: the first value plus the sum of each item's part.
        const loop = frame.loop;
        const when = frame.when.length > 0 ? this.all(frame.when) : undefined;
        const list = when ? `${loop.list}.filter(${loop.as}, ${when.cel})` : loop.list;
        const part = `sum(${list}.map(${loop.as}, ${value.cel}))`;
        const zero = /^0(\.0)?$/.test(old.cel);
        const total = this.cel(
          zero && op === '+' ? part : `${old.cel} ${op} ${part}`,
          [old, value, ...(when ? [when] : [])],
          undefined,
          'double',
        );
        this.accumulated.add(total);
        frame.locals.set(target.name, total);
        return;
      }
      // Under an `if`, the branch's end makes the change conditional (see `branch`).
      frame.locals.set(target.name, this.arith(old, op, value));
      return;
    }
    if (target.t === 'attr') {
      const amount = this.expr(right, frame);
      if (
        this.changeLocalModel(target, frame, (current) =>
          this.arith(current, op, this.celOf(amount)),
        )
      )
        return;
      const owner = this.placeOf(target.obj, frame, 'changes a field of');
      this.write(
        owner,
        target.name,
        (current) => this.arith(current, op, this.celOf(amount)),
        frame,
      );
      return;
    }
    throw new Unreadable(`it changes "${target.t}" (line ${this.line})`);
  }

  /** `x.append(v)` / `x.extend(list)` on a list column, or on a local list built up in a loop. */
  protected extend(objExpr: PyExpr, method: string, args: readonly PyExpr[], frame: Frame): void {
    const [arg] = args;
    if (arg === undefined || args.length !== 1)
      throw new Unreadable(`a ${method} with ${args.length} arguments`);
    const value = this.celOf(this.expr(arg, frame));
    const added = method === 'append' ? this.cel(`[${value.cel}]`, [value]) : value;
    if (objExpr.t === 'name') {
      const old = frame.locals.get(objExpr.name);
      if (old?.k !== 'cel')
        throw new Unreadable(`it adds to "${objExpr.name}", which is not a list it built`);
      if (frame.loop && !frame.dry) {
        const loop = frame.loop;
        const when = frame.when.length > 0 ? this.all(frame.when) : undefined;
        const list = when ? `${loop.list}.filter(${loop.as}, ${when.cel})` : loop.list;
        if (method !== 'append') throw new Unreadable('a list extended in a loop');
        const built = `${list}.map(${loop.as}, ${value.cel})`;
        const total = this.cel(old.cel === '[]' ? built : `${old.cel} + ${built}`, [old, value]);
        this.accumulated.add(total);
        frame.locals.set(objExpr.name, total);
        return;
      }
      // Under an `if`, the branch's end makes the growth conditional (see `branch`).
      frame.locals.set(objExpr.name, this.cel(`${old.cel} + ${added.cel}`, [old, added]));
      return;
    }
    if (objExpr.t !== 'attr') throw new Unreadable(`it adds to something not in the database`);
    if (
      this.changeLocalModel(objExpr, frame, (current) =>
        this.cel(`${current.cel} + ${added.cel}`, [current, added]),
      )
    )
      return;
    // `self.db.<table>.append(Model(…))` on a table kept as a list: a new row.
    const list = this.expr(objExpr, frame);
    if (list.k === 'table' && method === 'append') {
      const row = this.expr(arg, frame);
      const key = row.k === 'cel' ? row.fields?.get(list.table.key) : undefined;
      if (key === undefined)
        throw new Unreadable(
          `it appends to ${list.table.source} a row without its ${list.table.key} (line ${this.line})`,
        );
      this.insert(list.table, key, row, frame, false);
      return;
    }
    const owner = this.placeOf(objExpr.obj, frame, 'adds to a list of');
    this.write(
      owner,
      objExpr.name,
      (current) => this.cel(`${current.cel} + ${added.cel}`, [current, added]),
      frame,
      true,
    );
  }
}

/** The names a block assigns inside an `if`, `elif` or `else` (at any depth). */
function assignedUnderIf(statements: readonly PyStatement[], inside = false): Set<string> {
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
function callsSelf(e: PyExpr): boolean {
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
    default:
      break;
  }
  return parts.some(callsSelf);
}

/** `logger.info(…)`, `logging.debug(…)`, `print(…)`: a call that only writes a log. */
function isLogging(fn: PyExpr): boolean {
  if (fn.t === 'name') return fn.name === 'print';
  return (
    fn.t === 'attr' &&
    fn.obj.t === 'name' &&
    /^(logger|logging|log|LOGGER|_logger)$/.test(fn.obj.name) &&
    ['debug', 'info', 'warning', 'warn', 'error', 'exception', 'critical'].includes(fn.name)
  );
}
