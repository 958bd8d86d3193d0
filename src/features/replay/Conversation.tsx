import { memo, useEffect, useMemo, useRef } from 'react';
import type { ReactNode } from 'react';
import type {
  AssertionOpinion,
  Finding,
  GuardWhatIfs,
  Pinned,
  Replay,
  ReplayOpinion,
  ReplayStep,
  TerminationReason,
} from '../../core/index.ts';
import { ENDING_LABELS, ERROR_ENDINGS, quoteSpan, readerTurns } from '../../core/index.ts';
import { replaySelectors } from '../../state/replaySelectors.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import type { CallWhatIf } from './CallCard.tsx';
import { CallCard } from './CallCard.tsx';
import { AssertionCard, FindingCard, OpinionCard } from './Pins.tsx';
import { TurnNote } from './TurnNote.tsx';
import { ContinueButton } from './ContinueButton.tsx';
import { ForeignToolsNote } from './ForeignToolsNote.tsx';

/** Where a step stands against the replay's step. */
type Position = 'past' | 'current' | 'future';

interface StepPins {
  readonly findings: readonly Finding[];
  readonly opinions: readonly ReplayOpinion[];
  readonly assertions: readonly AssertionOpinion[];
}

function pinsByStep(replay: Replay): ReadonlyMap<number, StepPins> {
  const pins = new Map<
    number,
    { findings: Finding[]; opinions: ReplayOpinion[]; assertions: AssertionOpinion[] }
  >();
  const at = (step: number) => {
    let entry = pins.get(step);
    if (!entry) {
      entry = { findings: [], opinions: [], assertions: [] };
      pins.set(step, entry);
    }
    return entry;
  };
  const add = <T,>(
    list: readonly Pinned<T>[],
    into: (e: ReturnType<typeof at>, item: T) => void,
  ) => {
    for (const p of list) into(at(p.step), p.item);
  };
  add(replay.findings, (e, f) => e.findings.push(f));
  add(replay.opinions, (e, o) => e.opinions.push(o));
  add(replay.assertions, (e, a) => e.assertions.push(a));
  return pins;
}

/** Each call step's what-if, kept per step so a step's view re-renders only when its own changes. */
function whatIfByStep(
  replay: Replay,
  whatIfs: GuardWhatIfs | null,
  brokenFiles: string | null,
): ReadonlyMap<number, CallWhatIf> {
  const byStep = new Map<number, CallWhatIf>();
  if (!whatIfs) return byStep;
  for (const s of replay.steps) {
    if (!s.call?.guard) continue;
    const decision = whatIfs.ok ? whatIfs.calls.get(s.index) : undefined;
    if (decision) byStep.set(s.index, { decision, brokenFiles });
    else if (!whatIfs.ok) byStep.set(s.index, { problem: whatIfs.problem, brokenFiles });
  }
  return byStep;
}

/**
 * The dialogue as a chat: every step in order, the ones after the replay's step faded. Findings
 * and opinions sit under the step they concern, and each tool call says what today's guard rules
 * would decide about it (a what-if); calls to tools today's project lacks (a run of another
 * project) get none, said once above the dialogue. Clicking a step moves the replay there.
 */
export function Conversation({ replay, step }: { replay: Replay; step: number }) {
  const selectors = replaySelectors(useAppStoreApi());
  const whatIfs = useAppStore(selectors.selectGuardWhatIf);
  const brokenFiles = useAppStore(selectors.selectWhatIfBrokenFiles);
  const whatIf = useMemo(
    () => whatIfByStep(replay, whatIfs, brokenFiles),
    [replay, whatIfs, brokenFiles],
  );
  const pins = useMemo(() => pinsByStep(replay), [replay]);
  const name = useMemo(() => readerTurns(replay.transcript.messages), [replay]);
  const list = useRef<HTMLOListElement>(null);

  // Brought into view just after the step is painted: the scroll's layout stays out of that frame.
  useEffect(() => {
    const timer = setTimeout(() => {
      const current = list.current?.querySelector<HTMLElement>('[data-position="current"]');
      current?.scrollIntoView({ block: 'nearest' });
    }, 0);
    return () => {
      clearTimeout(timer);
    };
  }, [step, replay]);

  return (
    <div className="replay-conversation">
      <ForeignToolsNote tools={whatIfs?.ok === true ? whatIfs.foreignTools : []} />
      <ol ref={list} className="replay-chat" aria-label="Conversation">
        {replay.steps.map((s) => (
          <StepView
            key={s.index}
            step={s}
            position={s.index < step ? 'past' : s.index === step ? 'current' : 'future'}
            pins={pins.get(s.index)}
            turnName={name(s.turn)}
            note={s.kind === 'message' ? replay.notes.get(s.turn) : undefined}
            marks={replay.marks}
            dialogue={replay.dialogue}
            ending={s.kind === 'ending' ? replay.ending : undefined}
            whatIf={whatIf.get(s.index)}
          />
        ))}
      </ol>
    </div>
  );
}

const StepView = memo(function StepView({
  step,
  position,
  pins,
  turnName,
  note,
  marks,
  dialogue,
  ending,
  whatIf,
}: {
  step: ReplayStep;
  position: Position;
  pins: StepPins | undefined;
  turnName: string;
  note: string | undefined;
  marks: Replay['marks'];
  dialogue: string;
  ending: Replay['ending'];
  whatIf: CallWhatIf | undefined;
}) {
  const setStep = useAppStore((s) => s.setReplayStep);
  return (
    <li
      onClick={() => {
        setStep(step.index);
      }}
      className={`replay-step is-${step.kind}`}
      data-position={position}
      data-step={step.index}
      data-speaker={step.message?.speaker ?? (step.call?.by === 'user' ? 'user' : undefined)}
      aria-current={position === 'current' ? 'step' : undefined}
    >
      <StepBody
        step={step}
        turnName={turnName}
        opinions={pins?.opinions ?? []}
        ending={ending}
        whatIf={whatIf}
      />
      {step.kind === 'message' && (
        <div className="replay-step-tools">
          {step.message?.speaker === 'agent' && (
            <ContinueButton dialogue={dialogue} turn={step.turn} turnName={turnName} />
          )}
          <TurnNote turn={step.turn} note={note} />
        </div>
      )}
      {pins &&
        (pins.findings.length > 0 || pins.opinions.length > 0 || pins.assertions.length > 0) && (
          <div className="replay-pins">
            {pins.findings.map((f, i) => (
              <FindingCard
                key={`${f.id}-${String(i)}`}
                finding={f}
                mark={marks.findings.get(f.id)}
              />
            ))}
            {pins.opinions.map((o) => (
              <OpinionCard key={o.policy} opinion={o} mark={marks.judge.get(o.policy)} />
            ))}
            {pins.assertions.map((a) => (
              <AssertionCard key={a.id} assertion={a} mark={marks.assertions.get(a.id)} />
            ))}
          </div>
        )}
    </li>
  );
});

function StepBody({
  step,
  turnName,
  opinions,
  ending,
  whatIf,
}: {
  step: ReplayStep;
  turnName: string;
  opinions: readonly ReplayOpinion[];
  ending: Replay['ending'];
  whatIf: CallWhatIf | undefined;
}) {
  switch (step.kind) {
    case 'message': {
      const message = step.message;
      if (!message) return null;
      const who = message.speaker === 'agent' ? 'Agent' : 'Customer';
      return (
        <div className="replay-bubble" data-speaker={message.speaker}>
          <span className="replay-who">
            {who} <span className="replay-faint">· {turnName}</span>
          </span>
          {message.text === '' ? (
            <span className="replay-faint">(no words: it called a tool)</span>
          ) : (
            <MessageText text={message.text} opinions={opinions} />
          )}
        </div>
      );
    }
    case 'call':
      return step.call ? <CallCard call={step.call} whatIf={whatIf} /> : null;
    case 'fault':
      return (
        <div className="replay-fault" role="note">
          <strong>Error:</strong> a call of the {step.fault?.role} model ({step.fault?.model})
          failed ({step.fault?.failure}).
        </div>
      );
    case 'ending':
      return <EndingNote ending={ending} />;
  }
}

/** How the dialogue ended; an outside reason shows as the error it is. */
function EndingNote({ ending }: { ending: Replay['ending'] }) {
  if (!ending) return null;
  const reason = ending.reason as TerminationReason;
  const error = ERROR_ENDINGS.has(reason);
  return (
    <div className={error ? 'replay-fault' : 'replay-ending'} role={error ? 'note' : undefined}>
      {error && <strong>Error: </strong>}
      {ENDING_LABELS[reason].sentence} <span className="replay-faint">{ending.detail}</span>
    </div>
  );
}

/**
 * A message's words as plain text, with the judge's quoted evidence marked where it is found.
 * Nothing a model wrote is ever read as markup.
 */
function MessageText({ text, opinions }: { text: string; opinions: readonly ReplayOpinion[] }) {
  const spans = opinions
    .flatMap((o) => {
      const span = quoteSpan(text, o.evidence);
      return span ? [{ ...span, policy: o.policy }] : [];
    })
    .sort((a, b) => a.start - b.start);
  const parts: ReactNode[] = [];
  let at = 0;
  for (const span of spans) {
    if (span.start < at) continue;
    parts.push(text.slice(at, span.start));
    parts.push(
      <mark
        key={span.start}
        className="replay-evidence"
        title={`Quoted by the judge (${span.policy})`}
      >
        {text.slice(span.start, span.end)}
      </mark>,
    );
    at = span.end;
  }
  parts.push(text.slice(at));
  return <p className="replay-text">{parts}</p>;
}
