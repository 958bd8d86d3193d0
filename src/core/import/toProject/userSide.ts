import { compileCel, isCelProblem } from '../../cel.ts';
import type { ImportedDomain } from '../domain.ts';
import type { PyToken } from '../python/tokenize.ts';
import { tokenizePython } from '../python/tokenize.ts';
import type { CarryNote } from './carry.ts';
import type { TablePlan } from './database.ts';
import { planTables } from './database.ts';
import type { ToolEntry } from './tools.ts';
import { planTools } from './tools.ts';

/*
 * The user's side of an imported domain (dual control, docs/format.md): the user's state as
 * `side: user` tables, `user_tools.py`'s tools as `side: user` tools, and per task its
 * initialization actions, message history and environment assertions. Only simple shapes carry:
 * a field of the user's state set to an argument, a literal or its own negation, and an
 * assertion function that returns a comparison of such fields. Everything else is noted.
 */

/** The user's side as the project writes it. */
export interface UserSidePlan {
  readonly tables: readonly TablePlan[];
  readonly tools: ReadonlyArray<ToolEntry & { readonly side: 'user' }>;
  /** Each source user tool's name in the project. */
  readonly names: ReadonlyMap<string, string>;
}

/** Plans the user's tables and tools; `taken` holds the agent's table and tool names. */
export function planUserSide(
  domain: ImportedDomain,
  taken: { readonly tables: ReadonlySet<string>; readonly tools: ReadonlySet<string> },
  notes: CarryNote[],
): UserSidePlan {
  const tables = planTables(domain.userTables ?? [], notes).filter((t) => {
    if (!taken.tables.has(t.name)) return true;
    notes.push({
      file: 'database.yaml',
      item: `user table ${t.source}`,
      message: `The agent's database has a table "${t.name}" too; the user's is left out.`,
    });
    return false;
  });
  const own: CarryNote[] = [];
  const planned = planTools(domain.userTools ?? [], tables, own, domain);
  const names = new Map<string, string>();
  const tools = planned.entries.flatMap((entry, i) => {
    const source = domain.userTools?.[i];
    if (!source) return [];
    if (taken.tools.has(entry.name)) {
      notes.push({
        file: 'tools.yaml',
        item: `user tool ${source.name}`,
        message: `The agent has a tool "${entry.name}" too; the user's is left out.`,
      });
      return [];
    }
    names.set(source.name, entry.name);
    // The user's tools are read by the same reader as the agent's; a one-record table (the
    // phone) is its one row. What it cannot read is not imported, and says why.
    for (const note of own.filter((n) => n.item === `tool ${source.name}`))
      notes.push({ ...note, item: `user tool ${source.name}` });
    return [{ ...entry, side: 'user' as const }];
  });
  return { tables, tools, names };
}

/** What the names of a Python expression stand for in CEL. */
interface Names {
  /** A plain name (a parameter). */
  readonly name: (name: string) => string | undefined;
  /** `self.db.<table>.<field>`. */
  readonly field: (table: string, field: string) => string | undefined;
}

const OPS: Readonly<Record<string, string>> = {
  '==': '==',
  '!=': '!=',
  '<': '<',
  '>': '>',
  '<=': '<=',
  '>=': '>=',
  '(': '(',
  ')': ')',
};

/**
 * A Python expression of comparisons, `and`/`or`/`not`, literals, names and fields of the user's
 * state as CEL, or undefined when any part does not carry (a call, an attribute of anything else)
 * or the result is not one valid CEL expression.
 */
export function celOf(expression: string, names: Names): string | undefined {
  const { tokens, problems } = tokenizePython(expression);
  if (problems.length > 0) return undefined;
  const list = tokens.filter((t) => !['newline', 'eof', 'indent', 'dedent'].includes(t.type));
  const out: string[] = [];
  // `not` binds looser than a comparison: `not a == b` is `!(a == b)`, closed at and/or/end.
  let open = 0;
  const close = () => {
    if (open > 0) out.push(')'.repeat(open));
    open = 0;
  };
  for (let i = 0; i < list.length; i++) {
    const t = list[i] as PyToken;
    const field = fieldAt(list, i);
    if (field) {
      const cel = names.field(field.table, field.field);
      if (cel === undefined) return undefined;
      out.push(cel);
      i += 6;
    } else if (t.type === 'name' && (t.value === 'and' || t.value === 'or')) {
      close();
      out.push(t.value === 'and' ? '&&' : '||');
    } else if (t.type === 'name' && t.value === 'not') {
      out.push('!(');
      open++;
    } else if (t.type === 'name' && ['True', 'False', 'None'].includes(t.value)) {
      out.push(t.value === 'True' ? 'true' : t.value === 'False' ? 'false' : 'null');
    } else if (t.type === 'name') {
      const cel = names.name(t.value);
      if (cel === undefined || list[i + 1]?.value === '(' || list[i + 1]?.value === '.')
        return undefined;
      out.push(cel);
    } else if (t.type === 'string' && t.fstring !== true) out.push(JSON.stringify(t.value));
    else if (t.type === 'number' && /^\d+(\.\d+)?$/.test(t.value)) out.push(t.value);
    else if (t.type === 'op' && Object.hasOwn(OPS, t.value)) out.push(OPS[t.value] ?? '');
    else return undefined;
  }
  close();
  const cel = out.join(' ').replace(/\( /g, '(').replace(/ \)/g, ')').replace(/! \(/g, '!(');
  // Whatever came through token by token must still read as one CEL expression.
  return cel === '' || isCelProblem(compileCel(cel)) ? undefined : cel;
}

/** `self . db . <table> . <field>` starting at token `i`. */
function fieldAt(list: readonly PyToken[], i: number) {
  const [self, dot1, db, dot2, table, dot3, field] = list.slice(i, i + 7);
  if (self?.value !== 'self' || dot1?.value !== '.' || db?.value !== 'db' || dot2?.value !== '.')
    return undefined;
  if (table?.type !== 'name' || dot3?.value !== '.' || field?.type !== 'name') return undefined;
  return { table: table.value, field: field.value };
}
