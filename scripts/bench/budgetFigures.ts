// What a hostile condition or pattern costs before its budget stops it (core/celMeter.ts,
// core/regex/linear.ts), and what an ordinary pattern costs on the longest answer.
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { compileCel, isCelProblem } from '../../src/core/cel.ts';
import {
  MATCH_STEP_BUDGET,
  compilePattern,
  isPatternProblem,
} from '../../src/core/regex/linear.ts';
import { analyzeProject } from '../../src/core/analyze.ts';
import { MINI_FILES, miniProject } from '../../src/core/testing/miniProject.ts';
import { parseProject } from '../../src/core/format/parseProject.ts';
import { seedDatabase } from '../../src/core/sim/database.ts';
import { runTool } from '../../src/core/sim/toolRuntime.ts';
import { CEL_BOMBS, FOR_EACH_BOMB, costlyGuardRules } from '../../src/test/hostile/celBombs.ts';
import { COUNTED_REPEAT, ENDLESS_CONDITION } from '../../src/test/hostile/patternInputs.ts';
import { median, round } from './stats.ts';

/** Median milliseconds of `work` over `runs`, after one untimed run. */
function timed(runs: number, work: () => void): number {
  work();
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  return round(median(times));
}

/** Runs `work`, which must throw (a budget's error): a figure of a bomb that answered is wrong. */
function mustStop(what: string, work: () => unknown): () => void {
  return () => {
    try {
      work();
    } catch {
      return;
    }
    throw new Error(`budgetFigures: ${what} was not stopped by its budget`);
  };
}

/**
 * `cel_ms_budget` (the endless condition, 10^10 steps, until the step budget stops it; worst
 * shape of the corpus as `cel_ms_budget_worst`), `cel_ms_tool_call_budget` (the `for_each` bomb
 * until one call's budget of 10 million steps stops it), `regex_ms_counted_repeat` (`a{1,1000}b` on 20,000
 * a's: 27 s before the matcher had a budget), `regex_ns_per_step` (that match's time per step),
 * `regex_ms_ordinary_200k` (an e-mail-like pattern on a 200,000-character answer), and
 * `lint_ms_costly_guards` (`check` on eight guard rules each just under the step budget: the
 * contradiction search shares 20 budgets; 2.4 s when each evaluation had its own).
 */
export function budgetFigures(): Record<string, number> {
  const cel = (source: string) => {
    const compiled = compileCel(source);
    if (isCelProblem(compiled)) throw new Error(compiled.message);
    return compiled;
  };
  const endless = cel(ENDLESS_CONDITION);
  const bombs = CEL_BOMBS.map((bomb) => ({ compiled: cel(bomb.condition), args: bomb.args() }));
  const counted = compilePattern(COUNTED_REPEAT.pattern, 'iu');
  const ordinary = compilePattern('[a-z]{2,20}@[a-z]+\\.com', 'iu');
  if (isPatternProblem(counted) || isPatternProblem(ordinary)) throw new Error('a pattern failed');
  const text = COUNTED_REPEAT.text();
  const answer = 'The quick brown fox jumps over the lazy dog. '.repeat(4500).slice(0, 200_000);
  const costly = miniProject({
    'rules.yaml': MINI_FILES['rules.yaml'].replace(
      'guards:\n',
      () => `guards:\n${costlyGuardRules()}`,
    ),
  });
  const { model } = parseProject(
    miniProject({ 'tools.yaml': `${MINI_FILES['tools.yaml']}${FOR_EACH_BOMB.tool}` }),
  );
  const db = seedDatabase(model).db;
  const tagAll = { tool: 'tag_orders', args: FOR_EACH_BOMB.args() };
  const regexMs = timed(
    5,
    mustStop('the counted repeat', () => counted.test(text)),
  );
  return {
    cel_ms_budget: timed(
      7,
      mustStop('the endless condition', () => endless.run({})),
    ),
    cel_ms_budget_worst: Math.max(
      ...bombs.map(({ compiled, args }) =>
        timed(
          3,
          mustStop(compiled.source, () => compiled.run({ args })),
        ),
      ),
    ),
    cel_ms_tool_call_budget: timed(3, () => {
      if (runTool(model, db, tagAll, { now: '2026-05-01T12:00:00Z' }).ok)
        throw new Error('budgetFigures: the for_each bomb was not stopped by its budget');
    }),
    regex_ms_counted_repeat: regexMs,
    regex_ns_per_step: round((regexMs * 1e6) / MATCH_STEP_BUDGET),
    regex_ms_ordinary_200k: timed(5, () => ordinary.test(answer)),
    lint_ms_costly_guards: timed(3, () => analyzeProject(costly)),
  };
}

// `npx tsx scripts/bench/budgetFigures.ts` prints these figures alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(budgetFigures(), null, 2));
}
