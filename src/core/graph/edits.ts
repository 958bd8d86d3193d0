import type { Document, Node, YAMLSeq } from 'yaml';
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import type { RelationOrigin } from '../format/model.ts';
import type { SplicePlan, TextSplice } from '../format/yamlEdit.ts';
import {
  applySplices,
  parseForEdit,
  planAppend,
  planRemoveItems,
  planSetEntries,
} from '../format/yamlEdit.ts';

/**
 * What a graph edit did to policies.yaml: the new text and the splices that make it from the old
 * one (offsets in the OLD text, non-overlapping, in descending order of `start`, so applying them
 * one by one in the order given needs no offset bookkeeping), or a message for the user. The
 * text outside the splices is untouched: comments, blank lines, quoting and order stay.
 */
export type GraphEditResult<Extra extends object = object> =
  | ({ readonly ok: true; readonly text: string; readonly splices: readonly TextSplice[] } & Extra)
  | { readonly ok: false; readonly message: string };

/** A policy to add from the graph; without an `id`, one is made (`new-policy`, `new-policy-2`...). */
export interface NewPolicy {
  readonly id?: string;
  readonly text: string;
  readonly category: string;
  readonly challenge: number;
  readonly tools?: readonly string[];
}

/** The fields of a policy the graph view edits. */
export type PolicyField = 'category' | 'challenge' | 'text';

const POLICY_KEYS = ['id', 'text', 'category', 'challenge', 'tools', 'source'];
const RELATION_KEYS = ['between', 'weight', 'origin', 'reason'];
const ORIGINS: readonly RelationOrigin[] = ['manual', 'heuristic', 'model'];

interface List {
  readonly key: Node;
  readonly seq: YAMLSeq;
}

interface Opened {
  readonly text: string;
  readonly doc: Document.Parsed;
  readonly policies: List | undefined;
  readonly relations: List | undefined;
}

type Failure = { readonly ok: false; readonly message: string };

/**
 * Appends a policy to `policies:` (creating the key when missing) and returns its id: the slug of
 * the given id, or `new-policy`, made unique with `-2`, `-3`... One splice.
 */
export function addPolicy(text: string, policy: NewPolicy): GraphEditResult<{ id: string }> {
  const problem =
    checkField('text', policy.text) ??
    checkField('category', policy.category) ??
    checkField('challenge', policy.challenge);
  if (problem !== undefined) return fail(problem);
  const opened = open(text);
  if (!opened.ok) return opened;
  const { doc, policies } = opened.value;
  const taken = new Set(policies?.seq.items.map(idOf) ?? []);
  const base = slugOf(policy.id ?? '');
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  const tools = (policy.tools ?? []).filter((tool) => tool !== '');
  const item = {
    id,
    text: policy.text,
    category: policy.category,
    challenge: policy.challenge,
    ...(tools.length > 0 ? { tools } : {}),
  };
  return finish(text, [planAppend(text, doc, 'policies', [item], indentOf(opened.value))], { id });
}

/** Removes a policy and every relation that names it; says how many relations went with it. */
export function deletePolicy(
  text: string,
  id: string,
): GraphEditResult<{ removedRelations: number }> {
  const opened = open(text);
  if (!opened.ok) return opened;
  const { policies, relations } = opened.value;
  const index = policies?.seq.items.findIndex((item) => idOf(item) === id) ?? -1;
  if (policies === undefined || index === -1) return fail(`Policy "${id}" not found.`);
  const named = relationIndexes(relations, (pair) => pair.includes(id));
  const plans = [planRemoveItems(text, policies.key, policies.seq, [index])];
  if (relations !== undefined && named.length > 0) {
    plans.push(planRemoveItems(text, relations.key, relations.seq, named));
  }
  return finish(text, plans, { removedRelations: named.length });
}

/**
 * Sets one field of a policy: replaces just its scalar (keeping its quoting style and a comment
 * after it), or inserts the key in its usual place. Setting the value it already has changes
 * nothing (no splices).
 */
export function setPolicyField(
  text: string,
  id: string,
  field: PolicyField,
  value: string | number,
): GraphEditResult {
  const problem = checkField(field, value);
  if (problem !== undefined) return fail(problem);
  const opened = open(text);
  if (!opened.ok) return opened;
  const map = opened.value.policies?.seq.items.find((item) => idOf(item) === id);
  if (!isMap(map)) return fail(`Policy "${id}" not found.`);
  return finish(text, [planSetEntries(text, map, [[field, value]], POLICY_KEYS)], {});
}

/**
 * Sets the weight of the relation between two policies. When one exists (in either order; the
 * first if there are several) its weight and origin are replaced in place; otherwise a relation is
 * appended to `relations:` (created when missing) in the style of the list's last item.
 */
export function setRelation(
  text: string,
  a: string,
  b: string,
  weight: number,
  origin: RelationOrigin = 'manual',
): GraphEditResult<{ created: boolean }> {
  if (!Number.isFinite(weight) || weight < 0 || weight > 10) {
    return fail('The weight must be a number from 0 to 10.');
  }
  if (!ORIGINS.includes(origin)) return fail(`The origin must be one of ${ORIGINS.join(', ')}.`);
  if (a === b) return fail('A policy cannot be related to itself.');
  const opened = open(text);
  if (!opened.ok) return opened;
  const { doc, policies, relations } = opened.value;
  const ids = new Set(policies?.seq.items.map(idOf) ?? []);
  const missing = [a, b].find((id) => !ids.has(id));
  if (missing !== undefined) return fail(`Policy "${missing}" not found.`);
  const existing = relations?.seq.items[relationIndexes(relations, sameEnds(a, b))[0] ?? -1];
  if (isMap(existing)) {
    const entries = [['weight', weight] as const, ['origin', origin] as const];
    return finish(text, [planSetEntries(text, existing, entries, RELATION_KEYS)], {
      created: false,
    });
  }
  const item = { between: [a, b], weight, origin };
  const plan = planAppend(text, doc, 'relations', [item], indentOf(opened.value));
  return finish(text, [plan], { created: true });
}

/** One relation to write with {@link setRelations}. */
export interface RelationWrite {
  readonly a: string;
  readonly b: string;
  readonly weight: number;
  /** Why (a model's reason for its rating); written as `reason:` on one line when not blank. */
  readonly reason?: string;
}

/** Longer reasons are cut here, so a relation stays a few lines of policies.yaml. */
export const REASON_MAX_CHARS = 300;

/** A reason as it is written: one line, blanks collapsed, at most {@link REASON_MAX_CHARS}. */
export function reasonLine(reason: string): string {
  const line = reason.replace(/\s+/g, ' ').trim();
  return line.length > REASON_MAX_CHARS ? `${line.slice(0, REASON_MAX_CHARS - 1)}…` : line;
}

/**
 * Writes many relations in one edit, all with one origin (a model's ratings): a pair that has a
 * relation (in either order; the first) gets the new weight and origin in place, unless that
 * relation is `manual` (or names no origin, which reads as manual): a hand edit wins. A new pair
 * is appended to `relations:` in the list's style, unless its weight is 0 (no relation says as
 * much). A relation's reason, when given, is written with it as `reason:` (one line, see
 * {@link reasonLine}). Pairs naming an unknown policy, or one policy twice, are skipped. Says how
 * many were written and how many hand-written relations were kept.
 */
export function setRelations(
  text: string,
  relations: readonly RelationWrite[],
  origin: RelationOrigin = 'model',
): GraphEditResult<{ written: number; kept: number; skipped: number }> {
  if (!ORIGINS.includes(origin)) return fail(`The origin must be one of ${ORIGINS.join(', ')}.`);
  const opened = open(text);
  if (!opened.ok) return opened;
  const { doc, policies, relations: list } = opened.value;
  const ids = new Set(policies?.seq.items.map(idOf) ?? []);
  const firstOf = new Map<string, number>();
  list?.seq.items.forEach((item, i) => {
    const [x, y] = endsOf(item);
    if (typeof x !== 'string' || typeof y !== 'string') return;
    const key = x < y ? `${x}\0${y}` : `${y}\0${x}`;
    if (!firstOf.has(key)) firstOf.set(key, i);
  });
  const plans: SplicePlan[] = [];
  const appended: object[] = [];
  const done = new Set<string>();
  let kept = 0;
  let skipped = 0;
  let written = 0;
  for (const { a, b, weight, reason } of relations) {
    const key = a < b ? `${a}\0${b}` : `${b}\0${a}`;
    const bad = !Number.isFinite(weight) || weight < 0 || weight > 10;
    if (a === b || !ids.has(a) || !ids.has(b) || bad || done.has(key)) {
      skipped++;
      continue;
    }
    done.add(key);
    const line = reasonLine(reason ?? '');
    const existing = list?.seq.items[firstOf.get(key) ?? -1];
    if (isMap(existing)) {
      const own = scalarValue(existing.get('origin', true));
      if (own === undefined || own === 'manual') {
        kept++;
        continue;
      }
      const entries: [string, string | number][] = [
        ['weight', weight],
        ['origin', origin],
      ];
      if (line !== '') entries.push(['reason', line]);
      plans.push(planSetEntries(text, existing, entries, RELATION_KEYS));
      written++;
    } else if (weight > 0) {
      appended.push({ between: [a, b], weight, origin, ...(line !== '' && { reason: line }) });
      written++;
    }
  }
  plans.push(planAppend(text, doc, 'relations', appended, indentOf(opened.value)));
  return finish(text, plans, { written, kept, skipped });
}

/** Removes every relation between two policies (in either order); says how many there were. */
export function removeRelation(
  text: string,
  a: string,
  b: string,
): GraphEditResult<{ removed: number }> {
  const opened = open(text);
  if (!opened.ok) return opened;
  const { relations } = opened.value;
  const indexes = relationIndexes(relations, sameEnds(a, b));
  if (relations === undefined || indexes.length === 0) {
    return fail(`There is no relation between "${a}" and "${b}".`);
  }
  const plan = planRemoveItems(text, relations.key, relations.seq, indexes);
  return finish(text, [plan], { removed: indexes.length });
}

function open(text: string): { ok: true; value: Opened } | Failure {
  const parsed = parseForEdit(text);
  if (!parsed.ok) return parsed;
  const root = parsed.doc.contents;
  if (root !== null && !isMap(root)) {
    return fail('policies.yaml should be a mapping with `policies:` and `relations:` keys.');
  }
  const lists: Partial<Record<'policies' | 'relations', List>> = {};
  for (const name of ['policies', 'relations'] as const) {
    const pair = root?.items.find((item) => isScalar(item.key) && item.key.value === name);
    const value = pair?.value as Node | null | undefined;
    if (pair === undefined || !value || (isScalar(value) && value.value === null)) continue;
    if (!isSeq(value)) return fail(`\`${name}\` should be a list; fix it in the text first.`);
    lists[name] = { key: pair.key, seq: value };
  }
  return {
    ok: true,
    value: { text, doc: parsed.doc, policies: lists.policies, relations: lists.relations },
  };
}

function finish<Extra extends object>(
  text: string,
  plans: readonly SplicePlan[],
  extra: Extra,
): GraphEditResult<Extra> {
  const splices: TextSplice[] = [];
  for (const plan of plans) {
    if (!plan.ok) return fail(plan.message);
    splices.push(...plan.splices);
  }
  splices.sort((x, y) => y.start - x.start || y.end - x.end);
  const overlapping = splices.some((s, i) => i > 0 && s.end > (splices[i - 1]?.start ?? 0));
  const result = applySplices(text, splices);
  // A last guard: an edit that would leave the file unreadable is refused, never written.
  if (overlapping || parseDocument(result).errors.length > 0) {
    return fail('This change could not be made without breaking the file; edit the text instead.');
  }
  return { ok: true, text: result, splices, ...extra };
}

function fail(message: string): Failure {
  return { ok: false, message };
}

function checkField(field: PolicyField, value: unknown): string | undefined {
  if (field === 'challenge') {
    return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 5
      ? undefined
      : 'The challenge must be a whole number from 1 to 5.';
  }
  return typeof value === 'string' && value.trim() !== ''
    ? undefined
    : `A policy needs a ${field === 'text' ? 'text' : 'category'}.`;
}

function idOf(item: unknown): unknown {
  return isMap(item) ? scalarValue(item.get('id', true)) : undefined;
}

function scalarValue(node: unknown): unknown {
  return isScalar(node) ? node.value : undefined;
}

/** The two ends of a relation item, when it names two. */
function endsOf(item: unknown): readonly unknown[] {
  const between = isMap(item) ? item.get('between', true) : undefined;
  return isSeq(between) && between.items.length === 2 ? between.items.map(scalarValue) : [];
}

function sameEnds(a: string, b: string): (ends: readonly unknown[]) => boolean {
  return ([x, y]) => (x === a && y === b) || (x === b && y === a);
}

function relationIndexes(
  relations: List | undefined,
  test: (ends: readonly unknown[]) => boolean,
): number[] {
  const indexes: number[] = [];
  relations?.seq.items.forEach((item, i) => {
    const ends = endsOf(item);
    if (ends.length === 2 && test(ends)) indexes.push(i);
  });
  return indexes;
}

/** How far the file indents its lists under their keys (for a list it has to create). */
function indentOf({ text, policies, relations }: Opened): number {
  for (const list of [policies, relations]) {
    const dash = list?.seq.flow ? undefined : list?.seq.range?.[0];
    const key = list?.key.range?.[0];
    if (dash !== undefined && key !== undefined) return columnOf(text, dash) - columnOf(text, key);
  }
  return 2;
}

function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

/** A policy id from free text: lower case, `-` between words, starting with a letter. */
function slugOf(raw: string): string {
  const slug = raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug === '' ? 'new-policy' : slug;
}
