import { parse, TomlError } from 'smol-toml';
import type { ImportNote, JsonValue } from './domain.ts';

/**
 * A TOML document (a tau2-bench domain's `db.toml`) as the JSON the readers take, or why it could
 * not be read: a note naming the file, the line and the column. Dates and times become their
 * ISO-8601 text (`2024-05-15T15:00:00.000-05:00`, `2024-05-15`), as a db.json would hold them; an
 * integer past what a number holds exactly becomes its digits as text rather than be rounded, and
 * `inf` and `nan`, which have no JSON form, become null; each of those is noted. Never throws.
 */
export function readTomlData(
  text: string,
  file: string,
): { readonly data?: JsonValue; readonly notes: readonly ImportNote[] } {
  let table: unknown;
  try {
    table = parse(text, { maxDepth: 100, integersAsBigInt: 'asNeeded' });
  } catch (error) {
    if (error instanceof TomlError) {
      const what = (error.message.split('\n')[0] ?? '').replace(/^Invalid TOML document: /, '');
      return {
        notes: [
          {
            item: file,
            message: `Not valid TOML at line ${error.line}, column ${error.column} (${what}); database.yaml is left empty.`,
            place: { file, line: error.line },
          },
        ],
      };
    }
    const message = error instanceof Error ? error.message : String(error);
    return { notes: [{ item: file, message: `Not read (${message}).`, place: { file } }] };
  }
  const notes: ImportNote[] = [];
  const data = jsonOf(table, '', (path, message) => {
    notes.push({ item: `${file}, ${path}`, message, place: { file } });
  });
  return { data, notes };
}

/** A parsed TOML value as JSON; `path` names the value for notes (`users.u1.fine`). */
function jsonOf(
  value: unknown,
  path: string,
  note: (path: string, message: string) => void,
): JsonValue {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
    note(path, `${String(value)} has no JSON form; read as null.`);
    return null;
  }
  if (typeof value === 'bigint') {
    note(path, `The integer ${String(value)} is past what a number holds exactly; read as text.`);
    return String(value);
  }
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (Array.isArray(value))
    return value.map((item: unknown, i) => jsonOf(item, `${path}[${i}]`, note));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(value))
      Object.defineProperty(out, key, {
        value: jsonOf(item, path === '' ? key : `${path}.${key}`, note),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  // smol-toml gives nothing else (TOML has no null).
  return null;
}
