// Relation figures on the hand-rated 35-policy airline fixture (src/core/testing/airlineRelations.ts).
// relate_calls_35: model calls to rate every pair of the 35 policies from scratch (IntellAgent
// makes 595, one a pair); relate_calls_after_edit: calls after one policy's text changes. Both
// count the calls a scripted rater receives, so they measure the plan, not a model.
// heuristic_rank_agreement: Spearman's correlation of the heuristic edge weights (0 where there is
// no edge) with the hand ratings of the fixture's rated pairs.
import type { ChatEngine } from '../../src/core/index.ts';
import { heuristicRankAgreement, rateRelations } from '../../src/core/index.ts';
import { AIRLINE_POLICIES, AIRLINE_RATINGS } from '../../src/core/testing/airlineRelations.ts';
import { instantRuntime, modelReply } from '../../src/test/scriptedModels.ts';

/** A rater that gives every pair it is asked about a weight of 5, counting its calls. */
function countingRater(): { engine: ChatEngine; calls: () => number } {
  let calls = 0;
  const engine: ChatEngine = {
    chat: (request) => {
      calls++;
      const system = request.messages[0]?.content ?? '';
      const others = system.split('The other policies')[1] ?? '';
      const ratings = [...others.matchAll(/^([a-z0-9-]+): /gm)].map((m) => ({
        other: m[1],
        weight: 5,
        reason: 'bench',
      }));
      return Promise.resolve(modelReply(JSON.stringify({ ratings })));
    },
  };
  return { engine, calls: () => calls };
}

/** The relate plan's calls from scratch and after one edit, and the heuristic's rank agreement. */
export async function relateFigures(): Promise<{
  relate_calls_35: number;
  relate_calls_after_edit: number;
  heuristic_rank_agreement: number;
}> {
  const context = { runtime: instantRuntime, prices: {}, clock: () => 0 };
  const first = countingRater();
  const scratch = await rateRelations(AIRLINE_POLICIES, new Map(), {
    player: { engine: first.engine, model: 'scripted' },
    context,
  });
  const edited = AIRLINE_POLICIES.map((p, i) =>
    i === 17 ? { ...p, text: `${p.text} Edited.` } : p,
  );
  const second = countingRater();
  await rateRelations(edited, scratch.cache, {
    player: { engine: second.engine, model: 'scripted' },
    context,
  });
  return {
    relate_calls_35: first.calls(),
    relate_calls_after_edit: second.calls(),
    heuristic_rank_agreement:
      Math.round(heuristicRankAgreement(AIRLINE_POLICIES, AIRLINE_RATINGS) * 1000) / 1000,
  };
}
