import { compileCel, isCelProblem } from '../../cel.ts';
import type { JsonSchema, PyKnown } from '../domain.ts';
import { parsePyExpr, PyExprError } from '../python/expression.ts';
import type { PyFunction } from '../python/module.ts';
import { readPythonModule } from '../python/module.ts';
import type { PyStatement } from '../python/statements.ts';
import { indexOfTopLevel } from '../python/statements.ts';
import type { TablePlan } from './database.ts';
import { BranchReader, assignedUnderIf, isLogging } from './pyTool/branches.ts';
import { liftReturns, returnsInLoop } from './pyTool/flow.ts';
import {
  type CelValue,
  type Frame,
  IDENT,
  type Kits,
  type Loop,
  type ToolProgram,
  Unreadable,
  type Value,
  celName,
  celOfEffect,
  conflicts,
  itemSchema,
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
// the small steps all layers take (`base.ts`); what values do and are asked (`methods.ts`);
// expressions as CEL values and live places (`expressions.ts`); changes gathered into effects
// (`changes.ts`); assignments (`assignments.ts`); branches and returns (`branches.ts`); and the
// statements that drive them (here). Before reading, `flow.ts` reshapes a body (early returns,
// searches, `try`). The shapes they share and small pure pieces are in `values.ts`.

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

class Reader extends BranchReader {
  /** Whether a failure reached only after a change is carried as checked first (`programOf`). */
  failuresFirst = false;
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
}

/** The names a block assigns inside an `if`, `elif` or `else` (at any depth). */
