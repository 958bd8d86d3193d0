import { celSelect } from '../../celVariables.ts';
import { compileCel, isCelProblem } from '../../cel.ts';
import type { ImportedDomain, ImportedTool } from '../domain.ts';
import type { PyToken } from '../python/tokenize.ts';
import { tokenizePython } from '../python/tokenize.ts';
import { bodyStatements } from '../tau2User.ts';
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
  const planned = planTools(domain.userTools ?? [], tables, own);
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
    const mine = source.kind === 'write' ? singletonEffects(source, tables) : undefined;
    // The agent's planner carries writes to rows looked up by key; ours, to one-record tables.
    const theirs = typeof mine === 'string' && entry.effects !== undefined;
    const effects = theirs ? entry.effects : mine;
    const item = `tool ${source.name}`;
    for (const note of own.filter((n) => n.item === item)) {
      const replaced = typeof mine === 'string' || (mine !== undefined && mine.length > 0);
      if (!theirs && replaced && /changes|no effects/.test(note.message)) continue;
      notes.push({ ...note, item: `user tool ${source.name}` });
    }
    // Whichever planner carried its changes decides; a write neither could read is not imported.
    const carried = typeof effects === 'object' && effects.length > 0;
    const notImported =
      typeof effects === 'string'
        ? `what it changes on the user's device could not be read (${effects})`
        : carried
          ? undefined
          : entry.not_imported?.replace(/\.$/, '');
    if (typeof effects === 'string')
      notes.push({
        file: 'tools.yaml',
        item: `user tool ${source.name}`,
        message: `Not imported: ${notImported ?? ''}. A dialogue that calls it ends as an error.`,
        ...(notImported !== undefined && { notImported }),
      });
    const { effects: _none, not_imported: _reason, ...rest } = entry;
    return [
      {
        ...rest,
        side: 'user' as const,
        ...(carried && { effects }),
        ...(notImported !== undefined && { not_imported: `${notImported}.` }),
      },
    ];
  });
  return { tables, tools, names };
}

/** The user tables written as one record (a phone): one row, keyed `id`, equal to the name. */
function singletons(tables: readonly TablePlan[]): Map<string, TablePlan> {
  return new Map(
    tables
      .filter((t) => t.key === 'id' && t.rows.length === 1 && t.rows[0]?.id === t.source)
      .map((t) => [t.source, t]),
  );
}

/**
 * A write tool's body as `update` effects on the user's one-record tables, when each statement
 * sets a field (`self.db.device.data_on = not self.db.device.data_on`) and a last `return` is
 * all else; otherwise why not.
 */
function singletonEffects(
  tool: ImportedTool,
  tables: readonly TablePlan[],
): Array<Record<string, unknown>> | string {
  const records = singletons(tables);
  const params = new Set(Object.keys((tool.parameters.properties as object | undefined) ?? {}));
  const statements = bodyStatements(tool.body);
  const effects: Array<Record<string, unknown>> = [];
  for (const [i, statement] of statements.entries()) {
    if (statement.startsWith('return') && i === statements.length - 1) continue;
    const set = /^self\.db\.(\w+)\.(\w+)\s*=\s*(.+)$/.exec(statement);
    const table = set && records.get(set[1] ?? '');
    if (!set || !table) return `"${statement}" is not a field of the user's state set to a value`;
    const value = celOf(set[3] ?? '', {
      name: (n) => (params.has(n) ? `args.${n}` : undefined),
      field: (t, f) => (t === set[1] ? celSelect('row', f) : undefined),
    });
    if (value === undefined) return `"${set[3] ?? ''}" does not read as CEL`;
    effects.push({
      update: table.name,
      where: `row.id == ${JSON.stringify(table.source)}`,
      set: { [set[2] ?? '']: value },
    });
  }
  return effects;
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
