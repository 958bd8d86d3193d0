// Finding and renaming every use of a name: these parse each YAML file with the `yaml` library, so
// they live apart from symbols.ts and the editor loads them on the first references or rename.
import { isScalar, parseDocument, visit } from 'yaml';
import type { ParsedProject } from '../format/parseProject.ts';
import type { Project, ProjectFileName } from '../project.ts';
import { PROJECT_FILES } from '../project.ts';
import type { Occurrence, SymbolName } from './symbols.ts';
import { definitionOf } from './symbols.ts';

const YAML_FILES = PROJECT_FILES.filter((f) => f.language === 'yaml').map((f) => f.name);
/** Fields whose text is CEL: names appear there as string literals ("get_user"). */
const CEL_FIELDS = new Set(['when', 'where', 'returns', 'condition']);

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
