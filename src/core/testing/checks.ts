import type { Check, CheckKind } from '../format/model.ts';
import type { Finding } from '../sim/events.ts';
import type { Grounds } from '../sim/grounded.ts';
import { runChecks } from '../sim/judging.ts';
import type { Transcript } from '../sim/transcript.ts';

/** A transcript check of `kind` for tests, id `my-<kind>` on policy `pol`, with `fields` set. */
export const testCheck = (kind: CheckKind, fields: Partial<Check> = {}): Check => ({
  id: `my-${kind}`,
  policy: 'pol',
  kind,
  path: [],
  ...fields,
});

/** The one finding `check` gives on `transcript`. */
export function judgeOne(check: Check, transcript: Transcript, grounds?: Grounds): Finding {
  const [found] = runChecks([check], transcript, grounds);
  if (!found) throw new Error('no finding');
  return found;
}
