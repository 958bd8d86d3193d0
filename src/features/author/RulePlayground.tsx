import { useId, useMemo, useState } from 'react';
import type { GuardDecision, PastCall, Row } from '../../core/index.ts';
import {
  LineIndex,
  decideToolCall,
  emptyArguments,
  guardRuleIdSpan,
  seedDatabase,
  withGuardRule,
} from '../../core/index.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import { Icon } from '../../ui/Icon.tsx';

const PLAYGROUND_NOW = '2026-06-15T12:00:00Z';

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

function parseJson<T>(
  text: string,
  what: string,
  check: (v: unknown) => string | undefined,
): Parsed<T> {
  if (text.trim() === '') return { ok: true, value: undefined as T };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      error: `${what} are not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const problem = check(value);
  return problem === undefined
    ? { ok: true, value: value as T }
    : { ok: false, error: `${what}: ${problem}` };
}

/** A typing slip to show, or the decision with the rows a run would leave out of its database. */
type PlaygroundResult = { error: string } | { decision: GuardDecision; leftOut: readonly string[] };

const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Beside rules.yaml: type a tool call, earlier calls and database rows, and see which guard rule
 * decides, why, and how every rule before it fared, as the simulator would at that call.
 */
export function RulePlayground() {
  const store = useAppStoreApi();
  const model = useAppStore((s) => s.analysis?.model);
  const revealAt = useAppStore((s) => s.revealAt);
  const [tool, setTool] = useState('');
  const [args, setArgs] = useState('');
  const [history, setHistory] = useState('');
  const [rows, setRows] = useState('');
  const ids = { tool: useId(), args: useId(), history: useId(), rows: useId(), trial: useId() };
  // A draft rule a model proposed, tried here before it is in rules.yaml (the guard drafter).
  const trial = useAppStore((s) => s.playgroundTrial);
  const endTrial = useAppStore((s) => s.endPlaygroundTrial);
  const [seenTrial, setSeenTrial] = useState<number | undefined>(undefined);
  if (trial && trial.seq !== seenTrial) {
    setSeenTrial(trial.seq);
    setTool(trial.rule.tool);
    setArgs(JSON.stringify(trial.calls[0]?.args ?? {}, null, 2));
  }
  const judged = useMemo(
    () => (model && trial ? withGuardRule(model, trial.rule) : model),
    [model, trial],
  );

  const chosen = tool !== '' ? tool : (model?.guards[0]?.tool ?? model?.tools[0]?.name ?? '');
  const argsText =
    args === '' && model
      ? JSON.stringify(
          emptyArguments(model.tools.find((t) => t.name === chosen)?.parameters),
          null,
          2,
        )
      : args;

  const result = useMemo((): PlaygroundResult | undefined => {
    if (!model) return undefined;
    const parsedArgs = parseJson<Record<string, unknown> | undefined>(
      argsText,
      'The arguments',
      (v) => (isObject(v) ? undefined : 'write an object, like {"order_id": "o1"}'),
    );
    const parsedHistory = parseJson<
      { tool: string; args?: unknown; allowed?: unknown }[] | undefined
    >(history, 'The earlier calls', (v) =>
      Array.isArray(v) &&
      v.every((c) => isObject(c) && typeof (c as { tool?: unknown }).tool === 'string')
        ? undefined
        : 'write a list of calls, like [{"tool": "get_user", "args": {"user_id": "u1"}}]',
    );
    const parsedRows = parseJson<Record<string, Row[]> | undefined>(
      rows,
      'The database rows',
      (v) =>
        isObject(v) && Object.values(v as object).every(Array.isArray)
          ? undefined
          : 'write tables of rows, like {"orders": [{"id": "o1"}]}',
    );
    for (const parsed of [parsedArgs, parsedHistory, parsedRows])
      if (!parsed.ok) return { error: parsed.error };
    if (!parsedArgs.ok || !parsedHistory.ok || !parsedRows.ok) return undefined;
    // The rows a run's scenario would add: merged into the seed data by key, checked as a run
    // checks them, and whatever a run would leave out is said, not silently dropped.
    const { db, problems } = seedDatabase(model, parsedRows.value, {
      row: 'Typed row',
      rows: 'The typed rows',
    });
    const past: PastCall[] = (parsedHistory.value ?? []).map((c) => ({
      tool: c.tool,
      args: isObject(c.args) ? (c.args as Record<string, unknown>) : {},
      allowed: c.allowed !== false,
    }));
    return {
      decision: decideToolCall(
        judged ?? model,
        { tool: chosen, args: parsedArgs.value ?? {} },
        { db, history: past, now: model.now ?? PLAYGROUND_NOW },
      ),
      leftOut: problems,
    };
  }, [model, judged, chosen, argsText, history, rows]);

  // Reads rules.yaml as it is now, and only that file: a big project is never parsed here.
  const showRule = (ruleId: string) => {
    const text = store.getState().project.files['rules.yaml'];
    const span = guardRuleIdSpan(text, ruleId);
    if (!span) return;
    const at = new LineIndex(text).position(span.start);
    revealAt('rules.yaml', at.line, at.column);
  };

  return (
    <aside className="playground" aria-label="Rule playground">
      <h3 className="playground-title">Try a tool call</h3>
      {!model && <p className="loading">Reading the project…</p>}
      {model && trial && (
        <div className="playground-trial" role="note" aria-label="Draft rule on trial">
          <p>
            Trying the draft rule <code>{trial.rule.id}</code> after the rules of{' '}
            <code>{trial.rule.tool}</code>; it is not in rules.yaml yet.
          </p>
          <label htmlFor={ids.trial}>Example call</label>
          <select
            id={ids.trial}
            onChange={(e) => {
              const call = trial.calls[Number(e.currentTarget.value)];
              if (call) setArgs(JSON.stringify(call.args, null, 2));
            }}
          >
            {trial.calls.map((call, i) => (
              <option key={i} value={i}>
                {call.label}
              </option>
            ))}
          </select>
          <button type="button" className="link" onClick={endTrial}>
            Stop trying the draft
          </button>
        </div>
      )}
      {model && (
        <>
          <div className="playground-inputs">
            <label htmlFor={ids.tool}>Tool</label>
            <select
              id={ids.tool}
              value={chosen}
              onChange={(e) => {
                setTool(e.currentTarget.value);
                setArgs('');
              }}
            >
              {model.tools.map((t) => (
                <option key={t.name} value={t.name}>
                  {t.name} ({t.kind})
                </option>
              ))}
            </select>
            <label htmlFor={ids.args}>Arguments (JSON)</label>
            <textarea
              id={ids.args}
              rows={4}
              spellCheck={false}
              value={argsText}
              onChange={(e) => {
                setArgs(e.currentTarget.value);
              }}
            />
            <label htmlFor={ids.history}>Earlier calls (JSON list, optional)</label>
            <textarea
              id={ids.history}
              rows={2}
              spellCheck={false}
              placeholder='[{"tool": "get_user", "args": {"user_id": "u1"}}]'
              value={history}
              onChange={(e) => {
                setHistory(e.currentTarget.value);
              }}
            />
            <label htmlFor={ids.rows}>
              Database rows merged into the seed data by key (JSON, optional)
            </label>
            <textarea
              id={ids.rows}
              rows={2}
              spellCheck={false}
              placeholder='{"orders": [{"id": "o1", "status": "delivered"}]}'
              value={rows}
              onChange={(e) => {
                setRows(e.currentTarget.value);
              }}
            />
          </div>
          {/* Beside the inputs, or above them in a narrow column: never below the fold. */}
          <div className="playground-result">
            <p className="playground-now" data-testid="playground-now">
              {model.now === undefined
                ? `Conditions see now as ${PLAYGROUND_NOW}.`
                : `Conditions see now as ${model.now}, the time this project fixes.`}
            </p>
            {result && 'error' in result && (
              <p className="playground-error" role="alert">
                {result.error}
              </p>
            )}
            {result && 'decision' in result && (
              <>
                <DecisionView decision={result.decision} onShowRule={showRule} />
                {result.leftOut.length > 0 && <LeftOutRows problems={result.leftOut} />}
              </>
            )}
          </div>
        </>
      )}
    </aside>
  );
}

/** The rows a run would leave out of its database (the decision above left them out too), and why. */
function LeftOutRows({ problems }: { problems: readonly string[] }) {
  return (
    <div className="playground-left-out" role="note" aria-label="Rows left out">
      <p>Left out of the database, as a run would leave them out:</p>
      <ul>
        {problems.map((problem, i) => (
          <li key={i}>{problem}</li>
        ))}
      </ul>
    </div>
  );
}

const FALLBACK_WORDS = {
  message: 'the agent is told, and may try something else',
  end: 'the dialogue ends',
  ask_user: 'the user is asked to confirm',
} as const;

function DecisionView({
  decision,
  onShowRule,
}: {
  decision: GuardDecision;
  onShowRule: (rule: string) => void;
}) {
  const by = decision.decidedBy;
  return (
    <div className="decision" data-allowed={decision.allowed} role="status" aria-label="Decision">
      <p className="decision-verdict">
        <Icon name={decision.allowed ? 'simulate' : 'alert'} size={14} />
        {decision.allowed ? 'Allowed' : 'Refused'}
        {by.kind === 'rule' && (
          <>
            {' by '}
            <button
              type="button"
              className="link"
              onClick={() => {
                onShowRule(by.rule.id);
              }}
            >
              {by.rule.id}
            </button>
            <span className="decision-policy"> ({by.rule.policy})</span>
          </>
        )}
        {by.kind === 'default' && <span> by the tool&apos;s default ({by.decision})</span>}
      </p>
      <p className="decision-reason">{decision.reason}</p>
      {decision.fallback && (
        <p className="decision-fallback">Then: {FALLBACK_WORDS[decision.fallback]}.</p>
      )}
      {decision.trace.length > 0 && (
        <ol className="decision-trace" aria-label="Rules tried">
          {decision.trace.map((t) => (
            <li key={t.rule} data-outcome={t.outcome}>
              <button
                type="button"
                className="link"
                onClick={() => {
                  onShowRule(t.rule);
                }}
              >
                {t.rule}
              </button>
              : {t.outcome.replace('-', ' ')}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
