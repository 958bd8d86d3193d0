import { useEffect } from 'react';
import { compareSelectors } from '../../../state/compareSelectors.ts';
import { useAppStore, useAppStoreApi } from '../../../state/useAppStore.ts';
import { EmptyState } from '../../../ui/EmptyState.tsx';
import { FlipLists } from './FlipLists.tsx';
import { ProjectFiles } from './ProjectFiles.tsx';
import { RateTable } from './RateTable.tsx';
import { RecheckForm } from './RecheckForm.tsx';
import { RunPickers } from './RunPickers.tsx';
import { CHANGE_WORDS, differenceText } from './compareFormat.ts';

/** Two runs of this project side by side: rates per policy and category, and what flipped. */
export function CompareView() {
  const refreshRuns = useAppStore((s) => s.refreshRuns);
  const projectId = useAppStore((s) => s.projectId);
  const runList = useAppStore((s) => s.runList);
  const chosen = useAppStore((s) => s.compareBefore !== null || s.compareAfter !== null);
  const pick = useAppStore((s) => s.pickCompareRuns);
  const message = useAppStore((s) => s.compareMessage);
  const before = useAppStore((s) => s.compareBefore);
  const after = useAppStore((s) => s.compareAfter);
  const comparison = useAppStore(compareSelectors(useAppStoreApi()).selectComparison);

  useEffect(() => {
    void refreshRuns();
  }, [refreshRuns, projectId]);

  // By default the two latest runs (the list is newest first): the older before.
  const [latest, previous] = runList;
  useEffect(() => {
    if (!chosen && latest && previous) void pick({ before: previous.id, after: latest.id });
  }, [chosen, latest, previous, pick]);

  return (
    <div className="simulate-view compare-view">
      <RunPickers />
      <RecheckForm />
      {message && (
        <p className="simulate-message" role="alert">
          {message}
        </p>
      )}
      {runList.length < 2 && !comparison && (
        <EmptyState icon="simulate" title="Two runs are needed">
          <p>
            Compare sets two runs of this project side by side. Run the scenarios twice (say, before
            and after a change to the prompt), import a run in Replay, or re-check a run against
            today’s project.
          </p>
        </EmptyState>
      )}
      {comparison && before && after && (
        <>
          <section className="compare-summary" aria-label="What differs">
            <ProjectFiles before={before} after={after} />
            <p>
              {comparison.modelChanges.length === 0
                ? 'The same models played every role.'
                : `Models changed: ${comparison.modelChanges.join('; ')}.`}
            </p>
            <p data-change={comparison.overall.change}>
              Overall: {differenceText(comparison.overall.difference)},{' '}
              <strong>{CHANGE_WORDS[comparison.overall.change]}</strong>.
            </p>
          </section>
          <FlipLists comparison={comparison} before={before.id} after={after.id} />
          <RateTable label="Policies compared" heading="Policy" rows={comparison.byPolicy} />
          <RateTable label="Categories compared" heading="Category" rows={comparison.byCategory} />
          <p className="simulate-faint compare-note">
            Rates are passes over judged dialogues (n). The difference is after − before with
            Newcombe’s hybrid score interval (95%, built from each rate’s Wilson interval); a row is
            better or worse only when that interval leaves out zero, else it is within noise.
          </p>
        </>
      )}
    </div>
  );
}
