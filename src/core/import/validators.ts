import type { ImportNote, ImportedValidator } from './domain.ts';
import type { PyFunction } from './python/module.ts';
import { readPythonModule } from './python/module.ts';

/** The folder and files of an IntellAgent input's validators, as `DomainFiles` names them. */
export const INTELLAGENT_VALIDATORS = /^validators\/[^/]+\.py$/;

/** The longest a validator's summary runs before it is cut. */
const SUMMARY_LIMIT = 200;

/**
 * The data validators of one IntellAgent `validators/*.py` file: each function decorated
 * `@validator(table='…')`, by name, with its table and, where it reads plainly, what it checks
 * (its docstring's first line, else the messages it raises, an f-string's `{…}` parts written
 * `…`). The source is parsed, never run; what cannot be parsed is a note.
 */
export function readValidators(
  file: string,
  source: string,
  notes: ImportNote[],
): ImportedValidator[] {
  const module = readPythonModule(source);
  for (const p of module.problems)
    notes.push({ item: file, message: p.message, place: { file, line: p.line } });
  return module.functions.flatMap((f) => {
    const decorator = f.decorators.find((d) => /^(?:\w+\.)*validator\b/.test(d));
    // A def the parser could not name (broken source) is in `problems` already.
    if (decorator === undefined || !/^[A-Za-z_]\w*$/.test(f.name)) return [];
    const table = /\btable\s*=\s*(['"])([^'"]+)\1/.exec(decorator)?.[2];
    const checks = checksOf(f);
    return [
      {
        name: f.name,
        ...(table !== undefined && { table }),
        ...(checks !== undefined && { checks }),
        place: { file, line: f.line },
      },
    ];
  });
}

/** What a validator checks in its own words, or undefined when nothing in it says so plainly. */
function checksOf(f: PyFunction): string | undefined {
  const doc = f.docstring?.trim().split('\n')[0]?.trim();
  if (doc !== undefined && doc !== '') return cut(doc);
  const messages = [
    ...new Set(f.raises.flatMap((r) => messageOf(f, r.message, r.fstring) ?? [])),
  ].map((m) => `“${m}”`);
  return messages.length === 0 ? undefined : cut(`It refuses rows with ${messages.join('; ')}`);
}

/**
 * A raise's message as words: a literal as it is, an f-string with its `{…}` parts as `…`, and a
 * variable (`raise ValueError(error_message)`) through the one string it is set to in the body.
 */
function messageOf(f: PyFunction, message: string, fstring: boolean): string | undefined {
  if (fstring) return readable(fstringText(message));
  if (!/^[A-Za-z_]\w*$/.test(message)) return readable(message);
  const set = new RegExp(`^\\s*${message}\\s*=\\s*(f?)(["'])(.*)\\2\\s*$`, 'm').exec(f.text);
  if (set === null) return undefined;
  return readable(set[1] === 'f' ? fstringText(set[3] ?? '') : (set[3] ?? ''));
}

/** An f-string's body with each `{…}` part written `…` (`{{` and `}}` are braces). */
function fstringText(body: string): string {
  const inner = body.replace(/^f?(["'])(.*)\1$/s, '$2');
  return inner.replace(/\{\{|\}\}|\{[^{}]*\}/g, (part) =>
    part === '{{' ? '{' : part === '}}' ? '}' : '…',
  );
}

/** The text when it reads as words (not an expression left over), trimmed; else undefined. */
function readable(text: string): string | undefined {
  const trimmed = text.trim();
  return /[a-z]{2,}\s+[a-z]{2,}/i.test(trimmed) ? trimmed : undefined;
}

const cut = (text: string) =>
  text.length <= SUMMARY_LIMIT ? text : `${text.slice(0, SUMMARY_LIMIT - 1)}…`;
