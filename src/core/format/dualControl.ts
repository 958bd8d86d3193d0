import type { HistoryMessage, Side, ToolInvocation } from './model.ts';

/*
 * Reading the dual-control parts of a project (docs/format.md, "Dual control"): whose a tool or
 * table is, a scenario's `initialization:` calls and `message_history:`, and which required
 * actions the user must make. Like buildModel.ts, these take only what has the right shape and
 * leave the reporting to the schema and reference checks.
 */

type Obj = Readonly<Record<string, unknown>>;

const isObj = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const list = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);

/** `side: user` as the model keeps it (only the user's side is written out). */
export function sideOf(value: unknown): { side?: Side } {
  return value === 'user' ? { side: 'user' } : {};
}

/** Whose a tool or table is: `side: user` or the agent's. */
export function sideOfEntity(entity: { readonly side?: Side }): Side {
  return entity.side ?? 'agent';
}

/** A scenario's `initialization:` calls, each with a tool name (args default to none). */
export function initializationOf(value: unknown): ToolInvocation[] {
  return list(value).flatMap((item) =>
    isObj(item) && typeof item.tool === 'string'
      ? [{ tool: item.tool, args: isObj(item.args) ? item.args : {} }]
      : [],
  );
}

/** A scenario's `message_history:`, each turn with a known role and its text. */
export function messageHistoryOf(value: unknown): HistoryMessage[] {
  return list(value).flatMap((item): HistoryMessage[] => {
    if (!isObj(item) || typeof item.content !== 'string') return [];
    const role = item.role === 'user' || item.role === 'assistant' ? item.role : undefined;
    return role ? [{ role, content: item.content }] : [];
  });
}

/**
 * The required actions written with `requestor: user`, by finding id; counted as buildModel
 * counts the actions (each with a tool name), so the ids agree.
 */
export function requestorsOf(items: unknown): Record<string, 'user'> {
  const byId: Record<string, 'user'> = {};
  let index = 0;
  for (const item of list(items)) {
    const tool = typeof item === 'string' ? item : isObj(item) ? item.tool : undefined;
    if (typeof tool !== 'string') continue;
    if (isObj(item) && item.requestor === 'user')
      byId[`expected.required_actions[${index}]`] = 'user';
    index++;
  }
  return byId;
}

/** The tables a CEL expression reads through `db` (`db.phone`, `db["phone"]`). */
export function tablesReadBy(source: string): string[] {
  const names = new Set<string>();
  for (const m of source.matchAll(
    /(?<![.\w])db\s*(?:\.\s*([A-Za-z_]\w*)|\[\s*["']([^"']+)["']\s*\])/g,
  ))
    names.add(m[1] ?? m[2] ?? '');
  return [...names];
}

/** "the user's" or "the agent's", for messages. */
export function whose(side: Side): string {
  return side === 'user' ? 'the user’s' : 'the agent’s';
}
