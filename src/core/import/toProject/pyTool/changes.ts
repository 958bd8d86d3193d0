import { celSelect } from '../../../celVariables.ts';
import type { TablePlan } from '../database.ts';
import type { Effect } from './values.ts';
import { ExpressionReader } from './expressions.ts';
import {
  type CelValue,
  type Frame,
  type Group,
  type Place,
  Unreadable,
  type Value,
  bare,
  columnSchema,
  conflicts,
  fieldSchema,
  firstField,
  mapLiteral,
  pathKey,
  rebuild,
  stored,
} from './values.ts';

/** Gathers consecutive writes to one row into one `update` effect, timed against every read. */
export abstract class ChangeReader extends ExpressionReader {
  // ---- changes ----

  /**
   * Sets `field` of a place to `next(current)`. The change joins the pending one when it is to
   * the same row under the same conditions; otherwise the pending one is written first.
   */
  protected write(
    place: Place,
    field: string,
    next: (current: CelValue) => CelValue,
    frame: Frame,
    append = false,
  ): void {
    if (frame.probe) frame.probe.wrote = true;
    if (frame.dry) return;
    if (place.exists !== undefined && place.steps.length === 0)
      throw new Unreadable('it changes a row it may not have found');
    const key = place.key.cel;
    // A write to the row being changed, under the conditions the change began under and maybe
    // more, joins it: under more, as `cond ? new : current`, so that every field is computed
    // from the row as it was (a later effect would read what the change had written).
    // Under other conditions than the change began under: the change is widened to the
    // conditions both share, its fields so far kept as `earlier ? value : current`.
    // Two places inside one column whose keys are computed may be the same place: the second
    // must see the first's change, so the first is written before it.
    if (this.group && this.mayAlias(this.group, place)) this.flush();
    const begun = this.group;
    if (
      begun &&
      begun.table === place.table &&
      begun.key.cel === key &&
      begun.frame.loop === frame.loop &&
      !begun.frame.when.every((c, i) => frame.when[i] === c)
    )
      this.widen(begun, frame.when);
    const g = this.group;
    const extra =
      g &&
      g.table === place.table &&
      g.key.cel === key &&
      g.frame.loop === frame.loop &&
      g.frame.when.every((c, i) => frame.when[i] === c)
        ? frame.when.slice(g.frame.when.length)
        : undefined;
    if (g && extra === undefined) this.flush();
    const guard = extra && extra.length > 0 ? this.all(extra) : undefined;
    const compute = guard
      ? (current: CelValue) => this.ternary(guard, next(current), current)
      : next;
    // The row being changed, looked up again, is `row` as it was (checked unchanged since read).
    const rowText = `db.${place.table.name}.filter(r, ${celSelect('r', place.table.key)} == ${key})[0]`;
    const guarded = (current: CelValue) => {
      const value = compute(current);
      return value.cel.includes(rowText)
        ? { ...value, cel: value.cel.split(rowText).join('row') }
        : value;
    };
    const group: Group & { frame: Frame } = (this.group ??= {
      id: ++this.groups,
      table: place.table,
      key: place.key,
      sets: new Map(),
      nested: new Map(),
      used: [place.key],
      appends: new Set(),
      epoch: this.epoch++,
      frame,
    });
    const [first, ...rest] = place.steps;
    if (first === undefined) {
      if (!place.table.columns.some((c) => c.name === field))
        throw new Unreadable(`it sets "${field}", which is not a column of ${place.table.name}`);
      const schema = columnSchema(place.table, field);
      const current = this.cel(
        group.sets.get(field) ?? celSelect('row', field),
        [],
        schema,
        stored(schema),
      );
      const value = guarded({ ...current, group: group.id });
      group.used.push(value);
      if (append && (!group.sets.has(field) || group.appends.has(field))) group.appends.add(field);
      else group.appends.delete(field);
      group.sets.set(field, value.cel);
      return;
    }
    if (!('field' in first)) throw new Unreadable('it changes a row through an index');
    const path = pathKey(place.steps);
    const entry: { place: Place; fields: Map<string, string> } = group.nested.get(path) ?? {
      place,
      fields: new Map<string, string>(),
    };
    group.nested.set(path, entry);
    for (const step of rest) {
      if ('key' in step) group.used.push(step.key);
      if ('match' in step) group.used.push(step.match.cond);
    }
    const inside = this.renderRow(place, 'row');
    const schema = fieldSchema(place.schema, field);
    const current = this.cel(
      entry.fields.get(field) ?? celSelect(inside, field),
      [],
      schema,
      stored(schema),
    );
    const value = guarded({ ...current, group: group.id });
    group.used.push(value);
    entry.fields.set(field, value.cel);
  }

  /** Whether a write at `place` may land where another pending write inside its column does. */
  private mayAlias(group: Group, place: Place): boolean {
    if (group.table !== place.table || place.steps.length === 0) return false;
    const path = pathKey(place.steps);
    const literal = (p: Place) =>
      p.steps.every((step) => !('key' in step) || /^("[^"]*"|\d+)$/.test(step.key.cel));
    return [...group.nested.entries()].some(
      ([at, other]) =>
        at !== path &&
        firstField(other.place) === firstField(place) &&
        !(literal(other.place) && literal(place)),
    );
  }

  /** The pending change made to hold under the conditions it shares with `when`. */
  private widen(group: Group & { frame: Frame }, when: readonly CelValue[]): void {
    let shared = 0;
    while (shared < group.frame.when.length && group.frame.when[shared] === when[shared]) shared++;
    const guard = this.all(group.frame.when.slice(shared));
    const keep = (value: string, current: string) =>
      this.ternary(
        guard,
        this.cel(value, [], undefined, undefined, group.id),
        this.cel(current, []),
      ).cel;
    for (const [column, value] of group.sets)
      group.sets.set(column, keep(value, celSelect('row', column)));
    for (const { place, fields } of group.nested.values()) {
      const inside = this.renderRow(place, 'row');
      for (const [field, value] of fields) fields.set(field, keep(value, celSelect(inside, field)));
    }
    group.used.push(guard);
    this.group = { ...group, frame: { ...group.frame, when: group.frame.when.slice(0, shared) } };
  }

  /** What a change reads must not have changed since it was read (Python read it then). */
  private unchangedSinceRead(used: readonly CelValue[], group?: number): void {
    for (const value of used) {
      if (value.group !== undefined && value.group !== group)
        throw new Unreadable(
          `a value read inside one change is used in another (line ${this.line})`,
        );
      for (const effect of this.effects)
        for (const [read, time] of value.reads)
          if (effect.epoch >= time && conflicts([read], effect.writes))
            throw new Unreadable(
              `it reads ${read.replace('[]', '')} before a change to it and uses it after (line ${this.line})`,
            );
    }
  }

  /**
   * `self.db.<table>[key] = Model(…)`: a new row, as an `insert` whose values are the model's
   * fields and the key. From then on the body's names for the key and the model stand for the
   * row inserted (`inserted.<table>`): a later change that uses the new id (appending it to a
   * user's list) reads it there, not from the table it was computed from, which has changed.
   */
  protected insert(
    table: TablePlan,
    key: CelValue,
    row: Value,
    frame: Frame,
    replaces = true,
  ): void {
    if (frame.probe) frame.probe.wrote = true;
    if (frame.dry) return;
    if (frame.loop || frame.when.length > 0)
      throw new Unreadable(`it adds a row under an "if" or in a loop (line ${this.line})`);
    if (row.k !== 'cel' || row.fields === undefined)
      throw new Unreadable(
        `it adds a row to ${table.source} that is not a model built from fields (line ${this.line})`,
      );
    this.flush();
    const values: Record<string, string> = {};
    for (const [field, value] of row.fields) {
      if (!table.columns.some((c) => c.name === field))
        throw new Unreadable(
          `it adds a row whose "${field}" is not a column of ${table.source} (line ${this.line})`,
        );
      values[field] = bare(value.cel);
    }
    // The dict's key is the row's key, whatever the model says.
    values[table.key] = bare(key.cel);
    this.unchangedSinceRead([key, ...row.fields.values(), ...frame.when]);
    const writes = new Set(table.columns.map((c) => `${table.name}.${c.name}`));
    // A dict's `d[k] = v` replaces an entry already there: the row of that key goes first. (Its
    // values are then computed without it; a value that counts the table's rows would differ
    // from Python's only when the key was already there.)
    const where = `${celSelect('row', table.key)} == ${bare(key.cel)}`;
    // (A list's append adds a row whatever is there; the project keeps one row per key.)
    if (replaces) this.effects.push({ delete: table.name, where, writes, epoch: this.epoch++ });
    this.effects.push({ insert: table.name, values, writes, epoch: this.epoch++ });
    const inserted = celSelect('inserted', table.name);
    const newKey = this.cel(celSelect(inserted, table.key), [], key.schema, key.numeric);
    const newRow = this.cel(inserted, [], row.schema);
    for (const [name, value] of frame.locals) {
      if (value === key) frame.locals.set(name, newKey);
      else if (value === row) frame.locals.set(name, newRow);
    }
  }

  protected pendingWrites(): string[] {
    if (!this.group) return [];
    const g = this.group;
    return [
      ...[...g.sets.keys()].map((c) => `${g.table.name}.${c}${g.appends.has(c) ? '+' : ''}`),
      ...[...g.nested.values()].map((n) => `${g.table.name}.${firstField(n.place)}`),
    ];
  }

  /**
   * Writes the pending change as one `update` effect, and returns the columns it writes. In a
   * loop, a value read before the loop from a column the loop changes is read once, before the
   * first item, into the `for_each` list: each item is then `{<name>: item, h1: …}`.
   */
  protected flush(): Set<string> {
    const group = this.group;
    this.group = undefined;
    if (group === undefined) return new Set();
    const { frame } = group;
    const sets = new Map(group.sets);
    // Changes inside a column, applied to the column in order, each at its place.
    for (const { place, fields } of group.nested.values()) {
      const column = firstField(place);
      const base = sets.get(column) ?? celSelect('row', column);
      const patch = mapLiteral([...fields].map(([f, v]) => [f, bare(v)]));
      sets.set(
        column,
        rebuild(base, place.steps.slice(1), (at) => `merge(${at}, ${patch})`),
      );
    }
    const writes = new Set(
      [...sets.keys()].map(
        (c) => `${group.table.name}.${c}${group.appends.has(c) && !group.nested.size ? '+' : ''}`,
      ),
    );
    const used = [...group.used, ...frame.when];
    this.unchangedSinceRead(used, group.id);
    let where = `${celSelect('row', group.table.key)} == ${group.key.cel}`;
    let when = frame.when.length > 0 ? this.all(frame.when).cel : undefined;
    let each: { for_each: string; as: string } | undefined;
    const loop = frame.loop;
    if (loop) {
      loop.effects++;
      if (loop.effects > 1)
        throw new Unreadable(`a loop that makes two changes (line ${this.line})`);
      const hoisted = new Map<string, string>();
      const visit = (value: CelValue): void => {
        if (value.born < loop.epoch) {
          if (conflicts(value.reads.keys(), writes) && !hoisted.has(value.cel))
            hoisted.set(value.cel, `h${hoisted.size + 1}`);
          return;
        }
        value.deps.forEach(visit);
      };
      used.forEach(visit);
      each = { for_each: loop.list, as: loop.as };
      if (hoisted.size > 0) {
        const record = this.fresh('it');
        const swap = (cel: string) => {
          let out = cel;
          for (const [text, name] of hoisted) out = out.split(text).join(`${record}.${name}`);
          return `[${record}.${loop.as}].map(${loop.as}, ${out})[0]`;
        };
        each = {
          for_each: `${loop.list}.map(${loop.as}, ${mapLiteral([[loop.as, loop.as], ...[...hoisted].map(([text, name]) => [name, text] as [string, string])])})`,
          as: record,
        };
        where = swap(where);
        if (when !== undefined) when = swap(when);
        for (const [column, cel] of sets) sets.set(column, swap(cel));
      }
    }
    for (const [column, cel] of sets) sets.set(column, bare(cel));
    const effect: Effect = {
      update: group.table.name,
      ...each,
      ...(when !== undefined && { when }),
      where,
      set: Object.fromEntries(sets),
    };
    this.effects.push({ ...effect, writes, epoch: group.epoch });
    return writes;
  }
}
