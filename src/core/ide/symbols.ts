import { isScalar, parseDocument, visit } from 'yaml';
import type { ProjectModel } from '../format/model.ts';
import type { ParsedProject } from '../format/parseProject.ts';
import type { Project, ProjectFileName } from '../project.ts';
import { PROJECT_FILES } from '../project.ts';

/** The kinds of names the IDE can navigate, find and rename. */
export type SymbolKind = 'policy' | 'tool' | 'table';

/** A name the cursor is on, and what it names. */
export interface SymbolName {
  readonly kind: SymbolKind;
  readonly name: string;
}

/** One place a name is written: a file and the span of the name itself. */
export interface Occurrence {
  readonly file: ProjectFileName;
  readonly start: number;
  readonly end: number;
  readonly isDefinition: boolean;
}

const NAME_CHAR = /[A-Za-z0-9_-]/;
const YAML_FILES = PROJECT_FILES.filter((f) => f.language === 'yaml').map((f) => f.name);
/** Fields whose text is CEL: names appear there as string literals ("get_user"). */
const CEL_FIELDS = new Set(['when', 'where', 'returns']);

/** The word at an offset, in the sense of an id: letters, digits, "-" and "_". */
export function wordAt(
  text: string,
  offset: number,
): { word: string; start: number; end: number } | undefined {
  let start = offset;
  let end = offset;
  while (start > 0 && NAME_CHAR.test(text.charAt(start - 1))) start--;
  while (end < text.length && NAME_CHAR.test(text.charAt(end))) end++;
  if (start === end) return undefined;
  return { word: text.slice(start, end), start, end };
}

/** What the word at `offset` names, if it is a policy id, a tool name or a table name. */
export function symbolAt(
  model: ProjectModel,
  text: string,
  offset: number,
): SymbolName | undefined {
  const at = wordAt(text, offset) ?? wordAt(text, offset - 1);
  if (!at) return undefined;
  if (model.policies.some((p) => p.id === at.word)) return { kind: 'policy', name: at.word };
  if (model.tools.some((t) => t.name === at.word)) return { kind: 'tool', name: at.word };
  if (model.tables.some((t) => t.name === at.word)) return { kind: 'table', name: at.word };
  return undefined;
}

/** Where a name is defined: the `id` of a policy, the `name` of a tool or table. */
export function definitionOf(parsed: ParsedProject, symbol: SymbolName): Occurrence | undefined {
  const { model, files } = parsed;
  const located =
    symbol.kind === 'policy'
      ? ['policies.yaml', model.policies.find((p) => p.id === symbol.name)?.path, 'id']
      : symbol.kind === 'tool'
        ? ['tools.yaml', model.tools.find((t) => t.name === symbol.name)?.path, 'name']
        : ['database.yaml', model.tables.find((t) => t.name === symbol.name)?.path, 'name'];
  const [file, path, field] = located as [
    keyof ParsedProject['files'],
    readonly (string | number)[] | undefined,
    string,
  ];
  if (!path) return undefined;
  const span = files[file].spanOf([...path, field]);
  return { file, start: span.start, end: span.end, isDefinition: true };
}

/**
 * Every place a name is written in the YAML files: scalars equal to it (values and map keys) and
 * string literals inside CEL fields. Prose (descriptions, policy text, agent.md) is not searched,
 * so renaming a tool never rewrites a sentence.
 */
export function referencesOf(
  project: Project,
  parsed: ParsedProject,
  symbol: SymbolName,
): Occurrence[] {
  const definition = definitionOf(parsed, symbol);
  const out: Occurrence[] = [];
  for (const file of YAML_FILES) {
    const text = project.files[file];
    const doc = parseDocument(text);
    visit(doc, {
      Pair(_key, pair) {
        const field = isScalar(pair.key) ? String(pair.key.value) : '';
        const value = pair.value;
        if (
          CEL_FIELDS.has(field) &&
          isScalar(value) &&
          typeof value.value === 'string' &&
          value.range
        ) {
          out.push(...literalsIn(text, file, value.range[0], value.range[1], symbol.name));
        }
      },
      Scalar(_key, node) {
        if (!node.range || node.value !== symbol.name) return;
        const [start, end] = node.range;
        const written = text.slice(start, end);
        const inner = written.indexOf(symbol.name);
        if (inner < 0) return;
        const s = start + inner;
        out.push({
          file,
          start: s,
          end: s + symbol.name.length,
          isDefinition: definition?.file === file && definition.start <= s && s < definition.end,
        });
      },
    });
    // List items under `database:` in scenarios are CEL too.
    if (file === 'scenarios.yaml') {
      const listed = /^\s*-\s+(.*)$/gm;
      for (const match of text.matchAll(listed)) {
        const line = match[1] ?? '';
        if (!line.includes('db.')) continue;
        const start = match.index + match[0].length - line.length;
        out.push(...literalsIn(text, file, start, start + line.length, symbol.name));
      }
    }
  }
  return dedupe(out);
}

function literalsIn(
  text: string,
  file: ProjectFileName,
  start: number,
  end: number,
  name: string,
): Occurrence[] {
  const out: Occurrence[] = [];
  const slice = text.slice(start, end);
  const pattern = new RegExp(`(["'])${escapeRegExp(name)}\\1`, 'g');
  for (const match of slice.matchAll(pattern)) {
    const s = start + match.index + 1;
    out.push({ file, start: s, end: s + name.length, isDefinition: false });
  }
  return out;
}

function dedupe(occurrences: Occurrence[]): Occurrence[] {
  const seen = new Set<string>();
  return occurrences
    .filter((o) => {
      const key = `${o.file}:${o.start}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => YAML_FILES.indexOf(a.file) - YAML_FILES.indexOf(b.file) || a.start - b.start);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const ID_PATTERN = /^[a-z][a-z0-9_-]*$/;
const NAME_PATTERN = /^[a-z][a-z0-9_]*$/;

/**
 * Renames a policy, tool or table everywhere it is referenced.
 * @returns the new text of each changed file, or a message saying why the rename cannot be done.
 */
export function renameSymbol(
  project: Project,
  parsed: ParsedProject,
  symbol: SymbolName,
  newName: string,
): { files: Partial<Record<ProjectFileName, string>>; count: number } | { error: string } {
  const pattern = symbol.kind === 'policy' ? ID_PATTERN : NAME_PATTERN;
  if (!pattern.test(newName)) {
    return {
      error:
        symbol.kind === 'policy'
          ? `"${newName}" is not a valid policy id: use lower-case letters, digits, "-" and "_", starting with a letter.`
          : `"${newName}" is not a valid name: use lower-case letters, digits and "_", starting with a letter.`,
    };
  }
  const taken =
    symbol.kind === 'policy'
      ? parsed.model.policies.some((p) => p.id === newName)
      : symbol.kind === 'tool'
        ? parsed.model.tools.some((t) => t.name === newName)
        : parsed.model.tables.some((t) => t.name === newName);
  if (taken && newName !== symbol.name)
    return { error: `A ${symbol.kind} named "${newName}" already exists.` };
  const occurrences = referencesOf(project, parsed, symbol);
  const files: Partial<Record<ProjectFileName, string>> = {};
  for (const file of YAML_FILES) {
    const here = occurrences.filter((o) => o.file === file).sort((a, b) => b.start - a.start);
    if (here.length === 0) continue;
    let text = project.files[file];
    for (const o of here) text = text.slice(0, o.start) + newName + text.slice(o.end);
    files[file] = text;
  }
  return { files, count: occurrences.length };
}
