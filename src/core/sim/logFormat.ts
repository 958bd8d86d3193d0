import type { SimEvent } from './events.ts';
import { LOG_VERSION } from './events.ts';
import { eventProblem } from './logShape.ts';

/*
 * Reading a saved event log: whatever was stored or imported (a run saved by an older PolicyLab,
 * a file someone edited, a log from a newer version) is validated and brought to the current
 * format before anything folds it, so a report, a replay or a resume never meets a shape it does
 * not know, and a log it cannot read is said in words instead of breaking the page.
 */

/** An event as an older format wrote it: plain JSON, not yet held to the current shape. */
type RawEvent = Readonly<Record<string, unknown>>;

/** One step of the format: what changed, and how a log of the version before is brought up. */
export interface LogMigration {
  /** The version it reads; it writes `from + 1`. */
  readonly from: number;
  /** What changed, in words (for the docs and for a person reading a migrated log's note). */
  readonly change: string;
  readonly migrate: (events: readonly RawEvent[]) => RawEvent[];
}

/** A dialogue ended by its scenario's bad rows, as version 1 logged it (as a model error). */
const V1_SCENARIO_ROWS = "The scenario's rows are invalid";

/** Every step from the first format to `LOG_VERSION`, in order. */
export const LOG_MIGRATIONS: readonly LogMigration[] = [
  {
    from: 1,
    change:
      'run-started records the format version and always lists its prompts; a usage event always has its duration; model-error is split by role: the agent’s broken output is agent-error (its failure), a scenario’s invalid rows scenario-error.',
    migrate: (events) =>
      events.map((e) => {
        switch (e.type) {
          case 'run-started':
            return { ...e, version: 2, prompts: e.prompts ?? [] };
          case 'usage':
            return { ...e, ms: e.ms ?? 0 };
          case 'dialogue-ended':
            if (e.reason !== 'model-error') return e;
            // Only the agent had tools or a schema to break in a version 1 dialogue.
            return typeof e.detail === 'string' && e.detail.startsWith(V1_SCENARIO_ROWS)
              ? { ...e, reason: 'scenario-error' }
              : { ...e, reason: 'agent-error', role: 'agent' };
          default:
            return e;
        }
      }),
  },
  {
    from: 2,
    change:
      'run-started may record the time the run saw, the project’s seed rows and the run it was derived from; people’s marks and notes on a dialogue are events.',
    migrate: (events) => events.map((e) => (e.type === 'run-started' ? { ...e, version: 3 } : e)),
  },
  {
    from: 3,
    change:
      'run-started may record the project files the run judged; the judge’s opinion of a scenario’s natural-language assertion is an assertion event (a PolicyLab that reads format 3 does not know it, so it is told the log is newer).',
    migrate: (events) => events.map((e) => (e.type === 'run-started' ? { ...e, version: 4 } : e)),
  },
  {
    from: 4,
    change:
      'a tool call may say who made it (`by`: the user with their own tools, or the scenario’s setup; dual control); a person’s mark may judge the opinion of an assertion; a scenario may carry its tags, tactic and twin (adversarial and contrastive scenarios) (a PolicyLab that reads format 4 would count the user’s calls as the agent’s, so it is told the log is newer).',
    migrate: (events) => events.map((e) => (e.type === 'run-started' ? { ...e, version: 5 } : e)),
  },
];

/** A log read: its events in the current format, and the version it was saved in. */
export type ReadLog =
  | { readonly ok: true; readonly events: SimEvent[]; readonly savedVersion: number }
  | { readonly ok: false; readonly error: string };

/**
 * Reads a stored or imported log: finds its format version (in `run-started`; a log without one
 * is version 1), refuses a version newer than this code reads, migrates an older one step by
 * step, and checks every event against the current format. Never throws: a log that cannot be
 * read comes back as a message naming the first broken event and what is wrong with it.
 */
export function readLog(raw: unknown): ReadLog {
  if (!Array.isArray(raw)) return fail('The run’s log is not a list of events.');
  const events = raw as readonly unknown[];
  for (const [i, e] of events.entries()) {
    if (typeof e !== 'object' || e === null || Array.isArray(e))
      return fail(`Event ${i + 1} of the run’s log is not an event (a mapping with a type).`);
  }
  const version = versionOf(events as readonly RawEvent[]);
  if (typeof version === 'string') return fail(version);
  if (version > LOG_VERSION)
    return fail(
      `This run was saved by a newer PolicyLab (log format ${version}; this one reads formats up to ${LOG_VERSION}). Open it in an up-to-date PolicyLab.`,
    );
  let current = events as readonly RawEvent[];
  for (const step of LOG_MIGRATIONS) {
    if (step.from >= version && step.from < LOG_VERSION) current = step.migrate(current);
  }
  for (const [i, e] of current.entries()) {
    const wrong = eventProblem(e);
    if (wrong !== undefined) {
      const type = typeof e.type === 'string' ? ` (${e.type})` : '';
      return fail(`Event ${i + 1}${type} of the run’s log is broken: ${wrong}.`);
    }
  }
  return { ok: true, events: current as unknown as SimEvent[], savedVersion: version };
}

/** The log's format version, or what is wrong with it. */
function versionOf(events: readonly RawEvent[]): number | string {
  if (events.length === 0) return LOG_VERSION;
  const first = events[0];
  if (first?.type !== 'run-started')
    return 'The run’s log does not begin with the run’s start, so it cannot be read.';
  const version = first.version ?? 1;
  if (!Number.isInteger(version) || (version as number) < 1)
    return `The run’s log has a format version PolicyLab does not know: ${JSON.stringify(version)}.`;
  return version as number;
}

function fail(error: string): ReadLog {
  return { ok: false, error };
}
