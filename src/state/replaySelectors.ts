import type {
  DialogueRow,
  GuardWhatIfs,
  PolicyFacts,
  ProjectModel,
  Replay,
  RunReport,
  SettledAt,
  SimEvent,
  TableAt,
  ToolPolicies,
  Verdict,
} from '../core/index.ts';
import {
  databaseAt,
  dialogueIndex,
  filterDialogues,
  guardWhatIf,
  replayOf,
  settledAt,
} from '../core/index.ts';
import type { AppState } from './createAppStore.ts';
import { perStore } from './perStore.ts';
import { reportFor, stateFacts } from './runReports.ts';
import { runEvents } from './slices/replaySlice.ts';

/** The frame of the replay at its step: the database as it stood and what was settled so far. */
export interface ReplayFrame {
  readonly step: number;
  readonly database: readonly TableAt[];
  readonly settled: SettledAt;
}

/** How the Graph pane lights the policies of the replay's step. */
export interface GraphLight {
  readonly dialogue: string;
  /** The scenario's policies under test. */
  readonly inPlay: ReadonlySet<string>;
  /** Policies this step concerns. */
  readonly lit: ReadonlySet<string>;
  /** Policies broken at this step. */
  readonly breached: ReadonlySet<string>;
}

/** The files whose errors leave rules out of the guard what-if. */
const WHAT_IF_FILES = ['rules.yaml', 'tools.yaml'] as const;

/** Remembers the last answer of a function of a few inputs, compared by identity. */
function memo<A extends readonly unknown[], R>(compute: (...args: A) => R): (...args: A) => R {
  let last: { args: A; result: R } | undefined;
  return (...args) => {
    if (last && last.args.length === args.length && last.args.every((a, i) => a === args[i]))
      return last.result;
    const result = compute(...args);
    last = { args, result };
    return result;
  };
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}

function sameLight(a: GraphLight, b: GraphLight): boolean {
  return (
    a.dialogue === b.dialogue &&
    sameSet(a.inPlay, b.inPlay) &&
    sameSet(a.lit, b.lit) &&
    sameSet(a.breached, b.breached)
  );
}

/** The Replay pane's memoised selectors, made once per store (`replaySelectors(store)`). */
export function createReplaySelectors() {
  const toolsOf = memo(
    (policies: readonly { id: string; tools: readonly string[] }[] | undefined): ToolPolicies => {
      const byTool = new Map<string, string[]>();
      for (const p of policies ?? [])
        for (const tool of p.tools) byTool.set(tool, [...(byTool.get(tool) ?? []), p.id]);
      return byTool;
    },
  );
  const rows = memo((events: readonly SimEvent[], runReport: RunReport, policyFacts: PolicyFacts) =>
    dialogueIndex(events, runReport, policyFacts),
  );
  const filtered = memo(filterDialogues);
  const replay = memo(
    (events: readonly SimEvent[], dialogue: string, tools: ToolPolicies): Replay =>
      replayOf(events, dialogue, tools),
  );
  const compared = memo(
    (events: readonly SimEvent[], dialogue: string, tools: ToolPolicies): Replay =>
      replayOf(events, dialogue, tools),
  );
  // Made once per dialogue and per analysis of today's project, never per step.
  const whatIf = memo((r: Replay, model: ProjectModel): GuardWhatIfs => guardWhatIf(model, r));
  const frame = memo((r: Replay, step: number): ReplayFrame => ({
    step,
    database: databaseAt(r, step),
    settled: settledAt(r, step),
  }));
  // A step that lights what the one before lit gives the same light, so the graph is not redrawn.
  let lastLight: GraphLight | undefined;
  const light = memo((r: Replay, step: number): GraphLight => {
    const at = r.steps[step];
    const next: GraphLight = {
      dialogue: r.dialogue,
      inPlay: new Set(r.scenario?.policies ?? []),
      lit: new Set(at?.policies ?? []),
      breached: new Set(at?.breached ?? []),
    };
    if (lastLight && sameLight(lastLight, next)) return lastLight;
    lastLight = next;
    return next;
  });

  const policiesOf = (state: AppState) => state.analysis?.model.policies;

  /** The log of the run the Replay pane reads. */
  function selectReplayEvents(state: AppState): readonly SimEvent[] | undefined {
    return runEvents(state, state.replayRunId);
  }

  /** The report of that run, folded from its log. */
  function selectReplayReport(state: AppState): RunReport | null {
    const events = selectReplayEvents(state);
    return events ? reportFor(events, stateFacts(state)) : null;
  }

  /** Every dialogue of that run, as the list shows and filters them. */
  function selectDialogueRows(state: AppState): readonly DialogueRow[] {
    const events = selectReplayEvents(state);
    const runReport = selectReplayReport(state);
    if (!events || !runReport) return [];
    return rows(events, runReport, stateFacts(state));
  }

  /** The dialogues the list's filter lets through. */
  function selectFilteredRows(state: AppState): readonly DialogueRow[] {
    return filtered(selectDialogueRows(state), state.replayFilter);
  }

  /** The dialogue being replayed, folded into steps. */
  function selectReplay(state: AppState): Replay | null {
    const events = selectReplayEvents(state);
    const dialogue = state.replayDialogue;
    if (!events || dialogue === null) return null;
    return replay(events, dialogue, toolsOf(policiesOf(state)));
  }

  /** The dialogue shown beside it, when one is. */
  function selectComparedReplay(state: AppState): Replay | null {
    const other = state.replayCompare;
    if (!other) return null;
    const events = runEvents(state, other.run.id) ?? other.run.events;
    return compared(events, other.dialogue, toolsOf(policiesOf(state)));
  }

  /** The verdict of the dialogue shown beside, from its own run's report. */
  function selectComparedVerdict(state: AppState): Verdict | null {
    const other = state.replayCompare;
    if (!other) return null;
    const events = runEvents(state, other.run.id) ?? other.run.events;
    const found = reportFor(events, stateFacts(state)).dialogues.find(
      (d) => d.dialogue === other.dialogue,
    );
    return found?.verdict ?? null;
  }

  /** The replay's step, kept inside the dialogue (a log that shrank, a link to a step past its end). */
  function selectStep(state: AppState): number {
    const r = selectReplay(state);
    if (!r || r.steps.length === 0) return 0;
    return Math.min(state.replayStep, r.steps.length - 1);
  }

  /** The frame at the replay's step. */
  function selectFrame(state: AppState): ReplayFrame | null {
    const r = selectReplay(state);
    return r ? frame(r, selectStep(state)) : null;
  }

  /**
   * What today's guard rules would decide about each call of the dialogue, a what-if; null when
   * nothing is replayed or today's project has not been read (the standalone page has none).
   */
  function selectGuardWhatIf(state: AppState): GuardWhatIfs | null {
    const r = selectReplay(state);
    const model = state.analysis?.model;
    return r && model ? whatIf(r, model) : null;
  }

  /**
   * The files the what-if reads today (the guard rules, the tools they guard) that have errors,
   * as a reader names them ("rules.yaml"); null when both parse. What does not parse is left out.
   */
  function selectWhatIfBrokenFiles(state: AppState): string | null {
    const broken = WHAT_IF_FILES.filter((file) =>
      state.analysis?.diagnostics.some((d) => d.file === file && d.severity === 'error'),
    );
    return broken.length === 0 ? null : broken.join(' and ');
  }

  /** What the Graph pane lights for the step; null when nothing is replayed or lighting is off. */
  function selectGraphLight(state: AppState): GraphLight | null {
    if (!state.replayLightsGraph) return null;
    const r = selectReplay(state);
    return r ? light(r, selectStep(state)) : null;
  }

  return {
    selectReplayEvents,
    selectReplayReport,
    selectDialogueRows,
    selectFilteredRows,
    selectReplay,
    selectComparedReplay,
    selectComparedVerdict,
    selectStep,
    selectFrame,
    selectGraphLight,
    selectGuardWhatIf,
    selectWhatIfBrokenFiles,
  };
}

/** This store's replay selectors: `replaySelectors(store).select...`. */
export const replaySelectors = perStore(createReplaySelectors);
