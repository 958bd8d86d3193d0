import type { AssertionOpinion, Finding, MarkTarget, ReplayOpinion } from '../../core/index.ts';
import { findingState } from '../../core/index.ts';
import { useAppStore } from '../../state/useAppStore.ts';

/** Right / wrong buttons for a person's mark; pressing the pressed one takes the mark back. */
function MarkButtons({
  target,
  mark,
  what,
}: {
  target: MarkTarget;
  mark: boolean | undefined;
  what: string;
}) {
  const markReplay = useAppStore((s) => s.markReplay);
  const readOnly = useAppStore((s) => s.readOnly);
  if (readOnly) return null;
  const press = (correct: boolean) => {
    void markReplay(target, mark === correct ? null : correct);
  };
  return (
    <span className="replay-mark" role="group" aria-label={`Your review of ${what}`}>
      <button
        type="button"
        className="button button-quiet"
        aria-pressed={mark === true}
        onClick={(e) => {
          e.stopPropagation();
          press(true);
        }}
      >
        Right
      </button>
      <button
        type="button"
        className="button button-quiet"
        aria-pressed={mark === false}
        onClick={(e) => {
          e.stopPropagation();
          press(false);
        }}
      >
        Wrong
      </button>
    </span>
  );
}

/** A deterministic finding: a check or expectation that held or broke, with the rule's id. */
export function FindingCard({ finding, mark }: { finding: Finding; mark: boolean | undefined }) {
  const state = findingState(finding);
  return (
    <div className="replay-finding" data-state={state} data-testid="finding">
      <span className="replay-pin-kind">
        {state === 'broken'
          ? '✗ Check broken'
          : state === 'held'
            ? '✓ Check held'
            : state === 'unclear'
              ? '? Unclear'
              : state === 'ungraded'
                ? '– Not graded'
                : '! Scenario at fault'}
      </span>
      <span className="replay-pin-id">
        {finding.id}
        {finding.policy !== undefined ? ` · ${finding.policy}` : ' · no policy named'}
      </span>
      <p>{finding.detail}</p>
      <MarkButtons
        target={{ kind: 'finding', id: finding.id }}
        mark={mark}
        what={`finding ${finding.id}`}
      />
      {mark !== undefined && (
        <span className="replay-marked">You marked it {mark ? 'right' : 'wrong'}.</span>
      )}
    </div>
  );
}

/** A judge model's opinion: always labelled as a model's opinion, never a verdict. */
export function OpinionCard({
  opinion,
  mark,
}: {
  opinion: ReplayOpinion;
  mark: boolean | undefined;
}) {
  return (
    <div
      className="replay-opinion"
      data-violated={opinion.violated ? 'true' : 'false'}
      data-testid="opinion"
    >
      <span className="replay-pin-kind">
        Judge’s opinion (a model): {opinion.violated ? 'violated' : 'kept'}
      </span>
      <span className="replay-pin-id">{opinion.policy}</span>
      <p>{opinion.reason}</p>
      {opinion.evidence.trim() !== '' && <blockquote>{opinion.evidence}</blockquote>}
      <MarkButtons
        target={{ kind: 'judge', policy: opinion.policy }}
        mark={mark}
        what={`the judge’s opinion of ${opinion.policy}`}
      />
      {mark !== undefined && (
        <span className="replay-marked">You marked the judge {mark ? 'right' : 'wrong'}.</span>
      )}
    </div>
  );
}

const ASSERTION_WORDS: Readonly<Record<AssertionOpinion['opinion'], string>> = {
  met: 'holds',
  'not-met': 'does not hold',
  'not-judged': 'not judged',
};

/**
 * A scenario's natural-language assertion: the judge model's opinion of it, labelled as a model's
 * opinion like the judge's opinion of a policy, or plainly not judged (never shown as held). A
 * person may mark the judge's opinion right or wrong, as they mark its opinion of a policy.
 */
export function AssertionCard({
  assertion,
  mark,
}: {
  assertion: AssertionOpinion;
  mark?: boolean | undefined;
}) {
  const judged = assertion.opinion !== 'not-judged';
  return (
    <div
      className="replay-opinion"
      data-violated={assertion.opinion === 'not-met' ? 'true' : 'false'}
      data-opinion={assertion.opinion}
      data-testid="assertion"
    >
      <span className="replay-pin-kind">
        {judged ? 'Judge’s opinion (a model)' : 'Assertion'}: {ASSERTION_WORDS[assertion.opinion]}
      </span>
      <span className="replay-pin-id">
        “{assertion.text}”{assertion.policy !== undefined && ` · ${assertion.policy}`}
      </span>
      <p>{assertion.reason}</p>
      {assertion.evidence.trim() !== '' && <blockquote>{assertion.evidence}</blockquote>}
      {judged && (
        <MarkButtons
          target={{ kind: 'assertion', id: assertion.id }}
          mark={mark}
          what={`the judge’s opinion of “${assertion.text}”`}
        />
      )}
      {judged && mark !== undefined && (
        <span className="replay-marked">You marked the judge {mark ? 'right' : 'wrong'}.</span>
      )}
    </div>
  );
}
