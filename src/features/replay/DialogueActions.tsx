import { useState } from 'react';
import type { Replay } from '../../core/index.ts';
import { replaySelectors } from '../../state/replaySelectors.ts';
import { withReplayPlace } from '../../state/replayAddress.ts';
import { copyText } from '../../ui/clipboard.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import { downloadDialogue, downloadDialoguePicture } from './exportDialogue.ts';
import { selectEffectiveTheme } from '../../state/selectors.ts';

/** The dialogue as a file: Markdown for a ticket, JSON for tools. */
const EXPORTS = [
  { format: 'markdown', label: 'Markdown' },
  { format: 'json', label: 'JSON' },
] as const;

/** The dialogue's title bar: back to the list, its verdict, a link to the step, export, compare. */
export function DialogueActions({ replay, step }: { replay: Replay; step: number }) {
  const store = useAppStoreApi();
  const selectors = replaySelectors(store);
  const run = useAppStore((s) => s.replayRunId);
  const rows = useAppStore(selectors.selectDialogueRows);
  const runs = useAppStore((s) => s.runList);
  const comparing = useAppStore((s) => s.replayCompare);
  const pick = useAppStore((s) => s.pickReplayDialogue);
  const compareReplay = useAppStore((s) => s.compareReplay);
  const lights = useAppStore((s) => s.replayLightsGraph);
  const setLights = useAppStore((s) => s.setReplayLightsGraph);
  // The standalone viewer has no graph and no address to link to.
  const readOnly = useAppStore((s) => s.readOnly);
  const [copied, setCopied] = useState<string | null>(null);
  const row = rows.find((r) => r.dialogue === replay.dialogue);
  const siblings = rows.filter(
    (r) => r.scenario === row?.scenario && r.dialogue !== replay.dialogue,
  );

  const copyLink = async () => {
    if (run === null) return;
    const link = withReplayPlace(window.location.href, { run, dialogue: replay.dialogue, step });
    setCopied((await copyText(link)) ? 'Link copied.' : link);
  };

  return (
    <div className="replay-actions">
      <button
        type="button"
        className="button button-quiet replay-back"
        onClick={() => {
          pick(null);
        }}
      >
        ← Dialogues
      </button>
      <h3 className="replay-title">
        {replay.dialogue}{' '}
        {row && (
          <span className="verdict" data-verdict={row.verdict}>
            {row.verdict}
          </span>
        )}
      </h3>
      <span className="replay-actions-buttons">
        {!readOnly && (
          <button type="button" className="button button-quiet" onClick={() => void copyLink()}>
            Copy link to this step
          </button>
        )}
        {EXPORTS.map(({ format, label }) => (
          <button
            key={format}
            type="button"
            className="button button-quiet"
            onClick={() => {
              const events = selectors.selectReplayEvents(store.getState());
              if (events) downloadDialogue(events, replay.dialogue, format);
            }}
          >
            {label}
          </button>
        ))}
        <button
          type="button"
          className="button button-quiet"
          title="The dialogue up to this step as a picture, for a ticket"
          onClick={() => {
            const title = `${replay.dialogue}${row ? ` · ${row.verdict}` : ''}`;
            void downloadDialoguePicture(replay, {
              theme: selectEffectiveTheme(store.getState()),
              title,
              upTo: step,
            });
          }}
        >
          Picture
        </button>
        {!readOnly && (
          <label className="replay-check">
            <input
              type="checkbox"
              checked={lights}
              onChange={(e) => {
                setLights(e.target.checked);
              }}
            />
            Light the graph
          </label>
        )}
        <label className="replay-field replay-compare-pick">
          <span className="visually-hidden">Compare with</span>
          <select
            aria-label="Compare with"
            value={comparing ? `${comparing.run.id}\u0000${comparing.dialogue}` : ''}
            onChange={(e) => {
              const [otherRun, otherDialogue] = e.target.value.split('\u0000');
              if (!otherRun) void compareReplay(null);
              else
                void compareReplay({
                  run: otherRun,
                  dialogue: otherDialogue ?? '',
                  ...(row && { scenario: row.scenario, trial: row.trial }),
                });
            }}
          >
            <option value="">{comparing ? 'Stop comparing' : 'Compare with…'}</option>
            {comparing && (
              <option value={`${comparing.run.id}\u0000${comparing.dialogue}`} disabled>
                {comparing.dialogue} · {comparing.run.title}
              </option>
            )}
            {siblings.length > 0 && (
              <optgroup label="This run">
                {siblings.map((r) => (
                  <option key={r.dialogue} value={`${run ?? ''}\u0000${r.dialogue}`}>
                    {r.dialogue} (trial {r.trial + 1}, {r.verdict})
                  </option>
                ))}
              </optgroup>
            )}
            {runs.some((r) => r.id !== run) && (
              <optgroup label="The same scenario in another run">
                {runs
                  .filter((r) => r.id !== run)
                  .map((r) => (
                    <option key={r.id} value={`${r.id}\u0000`}>
                      {r.title}
                    </option>
                  ))}
              </optgroup>
            )}
          </select>
        </label>
      </span>
      {copied && (
        <output className="replay-copied">
          {copied === 'Link copied.' ? (
            copied
          ) : (
            <>
              Copy this link:{' '}
              <input
                readOnly
                value={copied}
                onFocus={(e) => {
                  e.target.select();
                }}
              />
            </>
          )}
        </output>
      )}
    </div>
  );
}
