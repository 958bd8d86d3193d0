import type { Node, Pair, YAMLMap } from 'yaml';
import { isMap, isScalar, isSeq } from 'yaml';
import type { SplicePlan, TextSplice } from '../format/yamlEdit.ts';
import { applySplices, lineBreakOf, parseForEdit } from '../format/yamlEdit.ts';
import { renderSequenceItems } from '../format/yamlRender.ts';
import type { GuardDraft } from './guardCheck.ts';

/** rules.yaml with the draft added, or why it cannot be added (the file is left as it is). */
export type GuardEdit =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string };

/** The rule as rules.yaml writes it, in the order docs/format.md shows. */
function ruleEntry(draft: GuardDraft): Record<string, string> {
  return {
    id: draft.id,
    policy: draft.policy,
    decision: draft.decision,
    when: draft.when,
    fallback: draft.fallback,
    message: draft.message,
  };
}

/**
 * Adds a drafted rule to rules.yaml as a text edit that keeps every other byte, comments
 * included: at the end of `guards.<tool>.rules`, creating `rules:`, the tool's entry or `guards:`
 * where they are missing (an empty `{}`, `[]` or nothing becomes a block). The new rule comes
 * after the tool's rules, so they keep deciding first. A file that is not readable YAML, or
 * that writes the place as a one-line `{ ... }` with entries, is refused with a sentence.
 */
export function addGuardRule(text: string, draft: GuardDraft): GuardEdit {
  const parsed = parseForEdit(text);
  if (!parsed.ok) return { ok: false, message: parsed.message };
  const plan = planAddRule(text, parsed.doc.contents, draft);
  return plan.ok
    ? { ok: true, text: applySplices(text, plan.splices) }
    : { ok: false, message: plan.message };
}

const STEP = 2;

function planAddRule(text: string, root: unknown, draft: GuardDraft): SplicePlan {
  const eol = lineBreakOf(text);
  const cannot = (message: string): SplicePlan => ({ ok: false, message });
  const rule = [ruleEntry(draft)];
  const items = (pad: number) => renderSequenceItems(rule, pad).replace(/\n/g, eol);
  const toolBlock = (pad: number) =>
    `${' '.repeat(pad)}${draft.tool}:${eol}${' '.repeat(pad + STEP)}rules:${eol}${items(pad + 2 * STEP)}${eol}`;

  if (root !== null && root !== undefined && !(isMap(root) && !root.flow)) {
    return isScalar(root) && root.value === null
      ? insertAt(text.length, `${lead(text, text.length, eol)}guards:${eol}${toolBlock(STEP)}`)
      : cannot(
          'rules.yaml is not written as a block mapping (key: value lines); add the rule by hand.',
        );
  }
  const guards = pairOf(root, 'guards');
  if (!guards) {
    return insertAt(text.length, `${lead(text, text.length, eol)}guards:${eol}${toolBlock(STEP)}`);
  }
  const guardsMap = guards.value as Node | null;
  if (isEmpty(guardsMap)) return replaceValue(text, guards, `${eol}${toolBlock(STEP)}`);
  if (!isMap(guardsMap) || guardsMap.flow) {
    return cannot(
      '`guards:` in rules.yaml is written on one line as { ... }; add the rule by hand.',
    );
  }
  const toolPad = columnOfNode(text, guardsMap.items[0]?.key);
  const tool = pairOf(guardsMap, draft.tool);
  if (!tool) {
    const at = endOfLine(text, endOfMap(guardsMap) - 1);
    return insertAt(at, `${lead(text, at, eol)}${toolBlock(toolPad)}`);
  }
  const toolMap = tool.value as Node | null;
  const rulesPad = toolPad + STEP;
  const rulesBlock = `${' '.repeat(rulesPad)}rules:${eol}${items(rulesPad + STEP)}${eol}`;
  if (isEmpty(toolMap)) return replaceValue(text, tool, `${eol}${rulesBlock}`);
  if (!isMap(toolMap) || toolMap.flow) {
    return cannot(`\`${draft.tool}:\` under guards is written on one line; add the rule by hand.`);
  }
  const rules = pairOf(toolMap, 'rules');
  if (!rules) {
    const pad = columnOfNode(text, toolMap.items[0]?.key);
    const at = endOfLine(text, endOfMap(toolMap) - 1);
    return insertAt(
      at,
      `${lead(text, at, eol)}${' '.repeat(pad)}rules:${eol}${items(pad + STEP)}${eol}`,
    );
  }
  const list = rules.value as Node | null;
  const keyPad = columnOfNode(text, rules.key);
  if (isEmpty(list)) return replaceValue(text, rules, `${eol}${items(keyPad + STEP)}${eol}`);
  if (!isSeq(list) || list.flow || !list.range) {
    return cannot(`The rules of \`${draft.tool}\` are written on one line; add the rule by hand.`);
  }
  const at = endOfLine(text, (endOf(list.items.at(-1) as Node | null) ?? list.range[1]) - 1);
  return insertAt(at, `${lead(text, at, eol)}${items(columnOf(text, list.range[0]))}${eol}`);
}

function insertAt(at: number, insert: string): SplicePlan {
  const splice: TextSplice = { start: at, end: at, insert };
  return { ok: true, splices: [splice] };
}

/** Replaces an empty value (`{}`, `[]`, nothing) after its key, keeping a comment on that line. */
function replaceValue(text: string, pair: Pair, block: string): SplicePlan {
  const keyEnd = (pair.key as Node | null)?.range?.[1];
  if (keyEnd === undefined) return { ok: false, message: 'rules.yaml cannot be edited there.' };
  const colon = text.indexOf(':', keyEnd);
  const lineEnd = endOfLine(text, colon);
  const rest = text.slice(colon + 1, lineEnd).replace(/\r?\n$/, '');
  const comment = /\s#.*$/.exec(rest)?.[0] ?? '';
  return { ok: true, splices: [{ start: colon + 1, end: lineEnd, insert: `${comment}${block}` }] };
}

/** A line break when the text before `at` does not end in one. */
function lead(text: string, at: number, eol: string): string {
  return at === 0 || text.slice(0, at).endsWith('\n') ? '' : eol;
}

function pairOf(map: unknown, key: string): Pair | undefined {
  if (!isMap(map)) return undefined;
  return map.items.find((p) => isScalar(p.key) && p.key.value === key);
}

function isEmpty(node: Node | null): boolean {
  if (node === null) return true;
  if (isScalar(node)) return node.value === null;
  return (isMap(node) || isSeq(node)) && node.flow === true && node.items.length === 0;
}

/** Where a map's own text ends: after its last entry's value (not the comments that follow). */
function endOfMap(map: YAMLMap): number {
  const last = map.items.at(-1);
  return endOf((last?.value ?? last?.key) as Node | null) ?? map.range?.[1] ?? 0;
}

/** Where a node's own text ends; block collections by their last entry (see yamlEdit.ts). */
function endOf(node: Node | null): number | undefined {
  if (node === null) return undefined;
  if ((isSeq(node) || isMap(node)) && !node.flow && node.items.length > 0) {
    return isMap(node) ? endOfMap(node) : endOf(node.items.at(-1) as Node | null);
  }
  return node.range?.[1];
}

function columnOfNode(text: string, node: unknown): number {
  const start = (node as Node | null | undefined)?.range?.[0];
  return start === undefined ? STEP : columnOf(text, start);
}

function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

function endOfLine(text: string, offset: number): number {
  const newline = text.indexOf('\n', Math.max(0, offset));
  return newline === -1 ? text.length : newline + 1;
}
