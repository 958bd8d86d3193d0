import { useMemo } from 'react';
import type { Replay, TranscriptMessage, WordSegment } from '../../core/index.ts';
import { alignDialogues, describeCall, diffWords, readerTurns } from '../../core/index.ts';
import { replaySelectors } from '../../state/replaySelectors.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';

/**
 * Two dialogues of one scenario side by side, turn by turn: the first turn where they part is
 * marked, and where both sides speak but differ, the words that differ are highlighted.
 */
export function ComparePane({ replay }: { replay: Replay }) {
  const store = useAppStoreApi();
  const selectors = replaySelectors(store);
  const other = useAppStore(selectors.selectComparedReplay);
  const otherVerdict = useAppStore(selectors.selectComparedVerdict);
  const verdict = useAppStore(
    (s) => selectors.selectDialogueRows(s).find((r) => r.dialogue === replay.dialogue)?.verdict,
  );
  const compare = useAppStore((s) => s.replayCompare);
  const live = useAppStore(
    (s) => s.currentRun?.live === true && s.currentRun.id === compare?.run.id,
  );
  const compareReplay = useAppStore((s) => s.compareReplay);
  const alignment = useMemo(
    () => (other ? alignDialogues(replay.transcript, other.transcript) : null),
    [replay, other],
  );
  if (!other || !alignment || !compare) return null;
  const leftName = readerTurns(replay.transcript.messages);
  const rightName = readerTurns(other.transcript.messages);
  return (
    <div className="replay-compare" aria-label="Two dialogues side by side">
      <div className="replay-compare-head">
        <span data-testid="compare-left">
          <strong>{replay.dialogue}</strong> (this run){' '}
          {verdict && (
            <span className="verdict" data-verdict={verdict}>
              {verdict}
            </span>
          )}
        </span>
        <span data-testid="compare-right">
          <strong>{other.dialogue}</strong> · {compare.run.title}{' '}
          {live
            ? 'running…'
            : otherVerdict && (
                <span className="verdict" data-verdict={otherVerdict}>
                  {otherVerdict}
                </span>
              )}
        </span>
        <button
          type="button"
          className="button button-quiet"
          onClick={() => void compareReplay(null)}
        >
          Stop comparing
        </button>
      </div>
      <p className="replay-faint" data-testid="parting">
        {alignment.firstParting === null
          ? 'The two dialogues are the same, turn for turn.'
          : `They part at row ${alignment.firstParting + 1}: ${partingName(alignment.rows[alignment.firstParting], leftName, rightName)}.`}
      </p>
      <ol className="replay-compare-rows">
        {alignment.rows.map((row, i) => {
          const words = row.a && row.b && !row.same ? diffWords(row.a.text, row.b.text) : null;
          return (
            <li
              key={i}
              className="replay-compare-row"
              data-same={row.same ? 'true' : 'false'}
              data-parting={i === alignment.firstParting ? 'true' : undefined}
            >
              {i === alignment.firstParting && (
                <span className="replay-parting">They part here</span>
              )}
              <Side message={row.a} words={words} side="removed" name={leftName} />
              <Side message={row.b} words={words} side="added" name={rightName} />
            </li>
          );
        })}
      </ol>
    </div>
  );
}

function partingName(
  row: { a?: TranscriptMessage; b?: TranscriptMessage } | undefined,
  left: (turn: number) => string,
  right: (turn: number) => string,
): string {
  if (!row) return '';
  if (row.a) return left(row.a.turn);
  return row.b ? right(row.b.turn) : '';
}

function Side({
  message,
  words,
  side,
  name,
}: {
  message: TranscriptMessage | undefined;
  words: readonly WordSegment[] | null;
  side: 'removed' | 'added';
  name: (turn: number) => string;
}) {
  if (!message) return <div className="replay-compare-side is-empty">—</div>;
  return (
    <div className="replay-compare-side" data-speaker={message.speaker}>
      <span className="replay-who">
        {message.speaker === 'agent' ? 'Agent' : 'Customer'}{' '}
        <span className="replay-faint">· {name(message.turn)}</span>
      </span>
      <p className="replay-text">
        {words
          ? words
              .filter((w) => w.kind === 'same' || w.kind === side)
              .map((w, i) =>
                w.kind === 'same' ? (
                  <span key={i}>{w.text}</span>
                ) : (
                  <mark key={i} className={`replay-diff-${side}`}>
                    {w.text}
                  </mark>
                ),
              )
          : message.text || <span className="replay-faint">(no words)</span>}
      </p>
      {message.calls.map((c) => (
        <p key={c.call} className="replay-compare-call">
          <code>{describeCall(c)}</code>
          {c.guard?.allowed === false && <span className="replay-guard is-refused"> refused</span>}
        </p>
      ))}
    </div>
  );
}
