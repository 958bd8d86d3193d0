// compare_ms: comparing two runs of 2,000 dialogues each from their logs, as `policylab compare`
// and the page do: both reports folded (reportOf) and set side by side (compareRuns). Median of 5
// after a warm-up. The second run is the first with every tenth dialogue's verdict turned, so
// the comparison has flips to find; the benchmark fails when it finds none.
import type { SimEvent } from '../../src/core/index.ts';
import { compareRuns, reportOf } from '../../src/core/index.ts';
import { BIG_LOG_POLICIES, manyDialoguesLog } from '../../src/core/testing/bigLogs.ts';
import { median, round } from './stats.ts';

const DIALOGUES = 2000;
const RUNS = 5;

/** The log with the findings of every tenth dialogue's checks turned (passed ↔ failed). */
function turned(log: readonly SimEvent[]): SimEvent[] {
  let nth = 0;
  return log.map((e) => {
    if (e.type !== 'checks') return e;
    nth++;
    if (nth % 10 !== 0) return e;
    return { ...e, findings: e.findings.map((f) => ({ ...f, passed: !f.passed })) };
  });
}

/** The compare figure (see the top of this file). */
export function compareFigures(): { compare_ms: number } {
  const before = manyDialoguesLog(DIALOGUES);
  const after = turned(before);
  const times: number[] = [];
  let flips = 0;
  for (let run = 0; run <= RUNS; run++) {
    const start = performance.now();
    const c = compareRuns(reportOf(before, BIG_LOG_POLICIES), reportOf(after, BIG_LOG_POLICIES));
    if (run > 0) times.push(performance.now() - start);
    flips = c.broke.length + c.fixed.length;
  }
  if (flips === 0) throw new Error('The compare benchmark found no flipped dialogue to list.');
  return { compare_ms: round(median(times)) };
}
