import type { SimEvent } from '../sim/events.ts';
import type { AssistSpent } from './assistCost.ts';
import { NOTHING_SPENT } from './assistCost.ts';

// The project's Assist log: one entry per model call an Assist action made (failed calls too),
// kept with the project's runs so money spent on proposals is data as a run's is. Entries are
// read back from storage, which may hold anything: `readAssistLog` keeps what is well formed.

/** The Assist actions that call a model. */
export const ASSIST_ACTIONS = ['extract', 'relate', 'guard-draft', 'attack'] as const;
export type AssistAction = (typeof ASSIST_ACTIONS)[number];

/** What each action is called where people read it. */
export const ASSIST_ACTION_NAMES: Record<AssistAction, string> = {
  extract: 'Extract policies',
  relate: 'Rate relations',
  'guard-draft': 'Draft guard rules',
  attack: 'Adversarial scenarios',
};

/** One model call of an Assist action, as the log keeps it: the call's usage, when and for what. */
export interface AssistUsage extends Omit<
  Extract<SimEvent, { type: 'usage' }>,
  'type' | 'at' | 'dialogue'
> {
  readonly type: 'assist-usage';
  readonly action: AssistAction;
  /** When the call ended (ISO time). */
  readonly when: string;
}

/** The id the project's Assist log is kept under in the run store (it is no run of its own). */
export function assistLogId(projectId: string): string {
  return `assist:${projectId}`;
}

/** A call's `usage` event as an entry of the log; other events give nothing. */
export function assistUsageOf(
  action: AssistAction,
  when: string,
  event: SimEvent,
): AssistUsage | undefined {
  if (event.type !== 'usage') return undefined;
  return {
    type: 'assist-usage',
    action,
    when,
    role: event.role,
    model: event.model,
    inputTokens: event.inputTokens,
    outputTokens: event.outputTokens,
    cost: event.cost,
    ms: event.ms,
    ...(event.failed !== undefined && { failed: event.failed }),
  };
}

const ROLES = new Set(['agent', 'user', 'judge', 'generator']);
const count = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0;

/** One stored value as an entry, or undefined when it is not one (or has impossible figures). */
function entryOf(raw: unknown): AssistUsage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const e = raw as Partial<Record<keyof AssistUsage, unknown>>;
  const ok =
    e.type === 'assist-usage' &&
    typeof e.action === 'string' &&
    (ASSIST_ACTIONS as readonly string[]).includes(e.action) &&
    typeof e.when === 'string' &&
    typeof e.role === 'string' &&
    ROLES.has(e.role) &&
    typeof e.model === 'string' &&
    count(e.inputTokens) &&
    count(e.outputTokens) &&
    (e.cost === null || count(e.cost)) &&
    count(e.ms) &&
    (e.failed === undefined || typeof e.failed === 'string');
  return ok ? (raw as AssistUsage) : undefined;
}

/** The stored log's entries that are well formed, and how many were not (shown, never lost silently). */
export function readAssistLog(stored: readonly unknown[]): {
  readonly entries: AssistUsage[];
  readonly unreadable: number;
} {
  const entries: AssistUsage[] = [];
  for (const raw of stored) {
    const entry = entryOf(raw);
    if (entry) entries.push(entry);
  }
  return { entries, unreadable: stored.length - entries.length };
}

/** What the log's calls spent, per action and in all; an unpriced call makes dollars unknown. */
export interface AssistTotals {
  readonly all: AssistSpent;
  readonly byAction: Readonly<Record<AssistAction, AssistSpent>>;
  /** Calls whose model had no price: their dollars are not in any figure. */
  readonly unpriced: number;
}

/** Sums the log: calls, failed calls, tokens and the dollars of the priced calls. */
export function assistTotals(entries: readonly AssistUsage[]): AssistTotals {
  const byAction = Object.fromEntries(ASSIST_ACTIONS.map((a) => [a, NOTHING_SPENT])) as Record<
    AssistAction,
    AssistSpent
  >;
  let all = NOTHING_SPENT;
  let unpriced = 0;
  for (const entry of entries) {
    const add = (s: AssistSpent): AssistSpent => ({
      calls: s.calls + 1,
      failed: s.failed + (entry.failed === undefined ? 0 : 1),
      inputTokens: s.inputTokens + entry.inputTokens,
      outputTokens: s.outputTokens + entry.outputTokens,
      cost: (s.cost ?? 0) + (entry.cost ?? 0),
    });
    byAction[entry.action] = add(byAction[entry.action]);
    all = add(all);
    if (entry.cost === null) unpriced++;
  }
  return { all, byAction, unpriced };
}
