import type { SimEvent, SimScenario, Transcript } from '../../core/index.ts';
import { personaOf, readerTurns, seatQuestion } from '../../core/index.ts';
import { FREE_PLAY } from '../../state/slices/playSlice.ts';
import type { LiveFinding } from '../../state/playSelectors.ts';
import type { Seat } from '../../state/slices/playSlice.ts';
import { playSelectors } from '../../state/playSelectors.ts';
import { useAppStore, useAppStoreApi } from '../../state/useAppStore.ts';
import { PlayComposer } from './PlayComposer.tsx';
import { PlayDialogue } from './PlayDialogue.tsx';
import { PlaySetup } from './PlaySetup.tsx';
import './play.css';
import { ReplayLink } from './ReplayLink.tsx';
import { StreamingText } from './StreamingText.tsx';

/** Play: set a game up, or play the one on screen. */
export function PlayView() {
  const play = useAppStore((s) => s.play);
  const view = useAppStore(playSelectors(useAppStoreApi()).selectPlayView);
  const message = useAppStore((s) => s.simulationMessage);
  const stopPlay = useAppStore((s) => s.stopPlay);
  const closePlay = useAppStore((s) => s.closePlay);
  if (!play || !view) {
    return (
      <div className="simulate-view">
        <PlaySetup />
        {message && (
          <p className="simulate-message" role="alert">
            {message}
          </p>
        )}
      </div>
    );
  }
  const lastAgent = view.transcript.messages.findLast((m) => m.speaker === 'agent')?.text;
  const question =
    play.seat === 'user' && play.turn ? seatQuestion(play.turn, lastAgent) : undefined;
  const other = play.seat === 'user' ? 'The agent' : 'The customer';
  const status = !play.live
    ? 'Game over'
    : play.turn
      ? 'Your turn'
      : view.transcript.ending
        ? 'Judging…'
        : `${other} (${play.opponent}) is writing…`;
  return (
    <section className="simulate-view play" aria-label="Play">
      <header className="run-header">
        <div>
          <h3>{play.title}</h3>
          <span className="simulate-faint" role="status" aria-label="Game status">
            {status}
          </span>
        </div>
        {play.live ? (
          <button type="button" className="button button-danger" onClick={stopPlay}>
            Stop
          </button>
        ) : (
          <span className="play-ended-actions">
            <ReplayLink run={play.id} dialogue={firstDialogue(play.events) ?? ''}>
              Replay this game
            </ReplayLink>
            <button type="button" className="button" onClick={closePlay}>
              New game
            </button>
          </span>
        )}
      </header>
      {play.error && (
        <p className="simulate-message" role="alert">
          {play.error}
        </p>
      )}
      <div className="play-body">
        <div className="play-main">
          <Brief seat={play.seat} scenario={play.scenario} />
          <PlayDialogue transcript={view.transcript} seat={play.seat} />
          {play.live && play.streaming && (
            <div
              className="play-message play-streaming"
              data-speaker={play.seat === 'user' ? 'agent' : 'user'}
              data-testid="streaming"
            >
              <span className="play-speaker">
                {play.seat === 'user' ? 'Agent' : 'Customer'}{' '}
                <span className="simulate-faint">writing…</span>
              </span>
              <StreamingText text={play.streaming.text} />
              {play.streaming.tools.length > 0 && (
                <code className="simulate-faint">calling {play.streaming.tools.join(', ')}…</code>
              )}
            </div>
          )}
          {question && (
            <p className="play-question" role="status">
              <strong>A guard rule asks you first:</strong> {question}
            </p>
          )}
          {play.live && play.turn && (
            <PlayComposer key={play.turn.id} seat={play.seat} turn={play.turn} />
          )}
        </div>
        <Findings findings={view.findings} final={view.final} transcript={view.transcript} />
      </div>
    </section>
  );
}

/** What the person is playing: the customer's brief, or the agent's. */
function Brief({ seat, scenario }: { seat: Seat; scenario: SimScenario }) {
  if (seat === 'agent') {
    return (
      <p className="play-brief">
        You are the agent under test: agent.md is your brief and the project’s tools are yours, run
        on the in-browser database. The customer wants: <em>{scenario.goal}</em>
      </p>
    );
  }
  if (scenario.id === FREE_PLAY) {
    return (
      <p className="play-brief" aria-label="Your brief">
        Free play on the seed data: you are a customer. Ask for anything, and try to talk the agent
        into breaking a policy.
      </p>
    );
  }
  return (
    <dl className="play-brief" aria-label="Your brief">
      <dt>You are</dt>
      <dd>{personaOf(scenario)}</dd>
      <dt>You want</dt>
      <dd>{scenario.goal}</dd>
      {scenario.knows.length > 0 && (
        <>
          <dt>You know</dt>
          <dd>{scenario.knows.join('; ')}</dd>
        </>
      )}
      {scenario.unknown.length > 0 && (
        <>
          <dt>You do not know</dt>
          <dd>{scenario.unknown.join('; ')}</dd>
        </>
      )}
    </dl>
  );
}

const SOURCES = {
  guard: 'guard rule',
  precondition: 'tool precondition',
  check: 'check',
  expected: 'expected outcome',
} as const;

/** The deterministic judges' findings, as the dialogue stands (or as judged at its end). */
function Findings({
  findings,
  final,
  transcript,
}: {
  findings: readonly LiveFinding[];
  final: boolean;
  transcript: Transcript;
}) {
  const broken = findings.filter((f) => f.state === 'broken');
  const turnName = readerTurns(transcript.messages);
  const open = findings.filter((f) => f.state === 'open');
  const kept = findings.filter((f) => f.state === 'kept');
  const ungraded = findings.filter((f) => f.state === 'ungraded');
  const noted = findings.filter((f) => f.state === 'noted');
  return (
    <aside className="play-findings" aria-label={final ? 'Findings' : 'Findings so far'}>
      <h4>{final ? 'Judged' : 'Checks so far'}</h4>
      {broken.length === 0 && (
        <p className="simulate-faint">{final ? 'Nothing broken.' : 'Nothing broken yet.'}</p>
      )}
      <ul>
        {broken.map((f, i) => (
          <li key={`${f.source}-${f.id}-${String(i)}`} data-state="broken">
            <strong>{f.policy ?? f.id}</strong>{' '}
            <span className="simulate-faint">
              {f.attempt && 'tried, refused · '}
              {SOURCES[f.source]} {f.id}
              {f.turn !== undefined && ` · ${turnName(f.turn)}`}
            </span>
            <p>{f.detail}</p>
          </li>
        ))}
        {open.map((f) => (
          <li key={`open-${f.id}`} data-state="open">
            <strong>{f.policy ?? f.id}</strong>{' '}
            <span className="simulate-faint">check {f.id} · not yet</span>
            <p>{f.detail}</p>
          </li>
        ))}
      </ul>
      <FoldedFindings findings={kept} state="kept" label="kept" />
      <FoldedFindings findings={ungraded} state="ungraded" label="not graded" />
      <FoldedFindings findings={noted} state="noted" label="tried, refused (noted)" />
    </aside>
  );
}

/** Findings folded under a summary: those kept, or those the scenario is not graded by. */
function FoldedFindings({
  findings,
  state,
  label,
}: {
  findings: readonly LiveFinding[];
  state: 'kept' | 'ungraded' | 'noted';
  label: string;
}) {
  if (findings.length === 0) return null;
  return (
    <details>
      <summary>
        {findings.length} {label}
      </summary>
      <ul>
        {findings.map((f) => (
          <li key={`${state}-${f.source}-${f.id}`} data-state={state}>
            <strong>{f.policy ?? f.id}</strong>{' '}
            <span className="simulate-faint">
              {SOURCES[f.source]} {f.id}
            </span>
            <p>{f.detail}</p>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The game's dialogue: a game is a one-dialogue run. */
function firstDialogue(events: readonly SimEvent[]): string | undefined {
  const started = events.find((e) => e.type === 'dialogue-started');
  return started?.type === 'dialogue-started' ? started.dialogue : undefined;
}
