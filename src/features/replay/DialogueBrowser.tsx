import { useMemo } from 'react';
import type { DialogueFilter, DialogueRow, Verdict } from '../../core/index.ts';
import { ENDING_LABELS, filterChoices } from '../../core/index.ts';
import { replaySelectors } from '../../state/replaySelectors.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import { VirtualList } from '../../ui/VirtualList.tsx';

const VERDICTS: readonly Verdict[] = ['pass', 'fail', 'error', 'suspect', 'running'];
const ROW_HEIGHT = 46;

/** The run's dialogues, filtered and searched; thousands scroll without drawing them all. */
export function DialogueBrowser() {
  const store = useAppStoreApi();
  const selectors = replaySelectors(store);
  const rows = useAppStore(selectors.selectDialogueRows);
  const shown = useAppStore(selectors.selectFilteredRows);
  const filter = useAppStore((s) => s.replayFilter);
  const setFilter = useAppStore((s) => s.setReplayFilter);
  const chosen = useAppStore((s) => s.replayDialogue);
  const pick = useAppStore((s) => s.pickReplayDialogue);
  const choices = useMemo(() => filterChoices(rows), [rows]);
  const change = (patch: Partial<DialogueFilter>) => {
    setFilter({ ...filter, ...patch });
  };
  const verdicts = filter.verdicts ?? VERDICTS;

  return (
    <div className="replay-browser">
      <div className="replay-filters" role="group" aria-label="Filter dialogues">
        <input
          type="search"
          className="replay-search"
          placeholder="Search the dialogues’ text"
          aria-label="Search the dialogues’ text"
          value={filter.text ?? ''}
          onChange={(e) => {
            change({ text: e.target.value === '' ? undefined : e.target.value });
          }}
        />
        <div className="replay-verdicts">
          {VERDICTS.map((v) => (
            <label key={v} className="replay-chip" data-verdict={v}>
              <input
                type="checkbox"
                checked={verdicts.includes(v)}
                onChange={(e) => {
                  const next = e.target.checked
                    ? [...verdicts, v]
                    : verdicts.filter((x) => x !== v);
                  change({ verdicts: next.length === VERDICTS.length ? undefined : next });
                }}
              />
              {v}
            </label>
          ))}
        </div>
        <div className="replay-selects">
          <Choice
            label="Policy"
            value={filter.policy}
            options={choices.policies}
            onChange={(policy) => {
              change({ policy });
            }}
          />
          <Choice
            label="Category"
            value={filter.category}
            options={choices.categories}
            onChange={(category) => {
              change({ category });
            }}
          />
          <Choice
            label="Ending"
            value={filter.ending}
            options={choices.endings}
            name={(e) => ENDING_LABELS[e].short}
            onChange={(ending) => {
              change({ ending });
            }}
          />
          <Choice
            label="Scenario"
            value={filter.scenario}
            options={choices.scenarios}
            onChange={(scenario) => {
              change({ scenario });
            }}
          />
          <Choice
            label="Trial"
            value={filter.trial === undefined ? undefined : String(filter.trial)}
            options={choices.trials.map(String)}
            name={(t) => String(Number(t) + 1)}
            onChange={(trial) => {
              change({ trial: trial === undefined ? undefined : Number(trial) });
            }}
          />
          <label className="replay-check">
            <input
              type="checkbox"
              checked={filter.judgeDisagrees === true}
              onChange={(e) => {
                change({ judgeDisagrees: e.target.checked ? true : undefined });
              }}
            />
            The judge disagrees
          </label>
        </div>
        <p className="replay-count" aria-live="polite">
          {shown.length === rows.length
            ? `${rows.length.toLocaleString()} dialogue${rows.length === 1 ? '' : 's'}`
            : `${shown.length.toLocaleString()} of ${rows.length.toLocaleString()} dialogues`}
        </p>
      </div>
      <VirtualList
        items={shown}
        rowHeight={ROW_HEIGHT}
        label="Dialogues of the run"
        className="replay-list"
        keyOf={(row) => row.dialogue}
        scrollTo={shown.findIndex((r) => r.dialogue === chosen)}
        render={(row) => (
          <DialogueButton
            row={row}
            current={row.dialogue === chosen}
            onPick={() => {
              pick(row.dialogue, row.firstBreachTurn === null ? {} : { turn: row.firstBreachTurn });
            }}
          />
        )}
      />
    </div>
  );
}

function DialogueButton({
  row,
  current,
  onPick,
}: {
  row: DialogueRow;
  current: boolean;
  onPick: () => void;
}) {
  const why =
    row.breached.length > 0
      ? `broke ${row.breached.join(', ')}`
      : row.ending
        ? ENDING_LABELS[row.ending].short
        : 'running';
  return (
    <button
      type="button"
      className="replay-row"
      aria-current={current ? 'true' : undefined}
      onClick={onPick}
    >
      <span className="replay-row-top">
        <span className="replay-row-name" title={row.dialogue}>
          {row.dialogue}
        </span>
        <span className="verdict" data-verdict={row.verdict}>
          {row.verdict}
        </span>
        {row.judgeDisagrees && (
          <span className="replay-row-flag" title="The judge and the checks disagree here">
            judge disagrees
          </span>
        )}
      </span>
      <span className="replay-row-why">
        {row.messages} messages · {why}
      </span>
    </button>
  );
}

function Choice<T extends string>({
  label,
  value,
  options,
  name = (o) => o,
  onChange,
}: {
  label: string;
  value: T | undefined;
  options: readonly T[];
  name?: (option: T) => string;
  onChange: (value: T | undefined) => void;
}) {
  return (
    <label className="replay-field">
      <span>{label}</span>
      <select
        value={value ?? ''}
        onChange={(e) => {
          onChange(e.target.value === '' ? undefined : (e.target.value as T));
        }}
      >
        <option value="">Any</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {name(o)}
          </option>
        ))}
      </select>
    </label>
  );
}
