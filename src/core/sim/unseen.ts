import type { Check } from '../format/model.ts';
import { CHECK_KINDS } from '../format/schemas.ts';
import type { Finding } from './events.ts';
import type { Transcript } from './transcript.ts';

/*
 * "This endpoint is my own agent": the agent's prompt, tools and database are on its side, so
 * the run sees its words and nothing else. What only its calls or its database could show is not
 * checked there, never failed: a check that reads calls, and an expectation on actions, the
 * database or the end state, become "Skipped" findings, so the policy counts as not checked in
 * that dialogue. An agent that reports its calls (they are in the transcript) is judged whole.
 */

/** The check kinds that read only the agent's words: every other kind reads its calls too. */
const WORDS_ONLY: ReadonlySet<Check['kind']> = new Set(['must_say', 'must_not_say']);

/** The check kinds that read the agent's calls or their results, not only its words. */
const READS_CALLS: ReadonlySet<Check['kind']> = new Set(
  CHECK_KINDS.filter((kind) => !WORDS_ONLY.has(kind)),
);

/** The expectations an agent's own side decides: its actions, the database, its end state. */
const UNSEEN_EXPECTATION = /^expected\.(?:database|required_actions|forbidden_actions|end_state)\b/;

const NOT_SEEN =
  'Skipped: not checked. The agent is your own endpoint: its tool calls and its database are on its side, where the run cannot see them.';

/**
 * The findings of a dialogue with an agent of its own (`externalAgent`), with what the run could
 * not see marked not checked; unchanged when the agent reported any call of its own.
 */
export function withoutUnseen(
  findings: readonly Finding[],
  checks: readonly Check[],
  transcript: Transcript,
): Finding[] {
  if (transcript.calls.some((c) => c.by === undefined)) return [...findings];
  const callChecks = new Set(checks.filter((c) => READS_CALLS.has(c.kind)).map((c) => c.id));
  return findings.map((f) =>
    callChecks.has(f.id) || UNSEEN_EXPECTATION.test(f.id)
      ? { id: f.id, policy: f.policy, passed: true, detail: NOT_SEEN }
      : f,
  );
}
