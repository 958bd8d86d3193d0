import type { ProjectModel } from '../format/model.ts';
import { projectHash } from '../project.ts';
import type { Database, Finding, SimEvent, SimScenario, StartingData } from './events.ts';
import { ERROR_ENDINGS, findingState, LOG_VERSION, runStartOf } from './events.ts';
import { seedDatabase, tableKeys } from './database.ts';
import { applyChange } from './fork.ts';
import { checkExpectations, endStateCharging, passesWithoutAgent } from './expectations.ts';
import { runChecks } from './judging.ts';
import { groundsOf } from './grounded.ts';
import { withoutUnseen } from './unseen.ts';
import { handWrittenScenarios } from './scenarios.ts';
import { simulatorSuspicion } from './suspect.ts';
import { transcriptOf } from './transcript.ts';

/** A saved run judged again against the project as it is now. */
export interface Recheck {
  /** The derived run's log: the source's dialogues with today's findings, naming its source. */
  readonly events: SimEvent[];
  /** Dialogues judged again. */
  readonly rechecked: number;
  /** Dialogues kept as they were judged, and why (their database could not be rebuilt). */
  readonly kept: readonly { readonly dialogue: string; readonly reason: string }[];
  /** Scenarios whose expectations came from today's scenarios.yaml rather than the log. */
  readonly scenariosFromProject: readonly string[];
  /** What the reader should know: e.g. an older log without its starting data. */
  readonly notes: readonly string[];
}

/** The project's tables, with the seed rows the run recorded in place of today's. */
function withLoggedSeeds(model: ProjectModel, data: StartingData | undefined): ProjectModel {
  if (!data) return model;
  const logged = new Map(data.tables.map((t) => [t.name, t.rows]));
  return {
    ...model,
    tables: model.tables.map((t) => {
      const rows = logged.get(t.name);
      return rows ? { ...t, rows } : t;
    }),
  };
}

/**
 * Re-judges every finished dialogue of a saved run (`events`, with run id `run`) against
 * `model`'s transcript checks and the expectations of its scenarios as scenarios.yaml has them
 * now (a scenario no longer there keeps the expectations the run logged), without calling a
 * model: each dialogue's transcript and database are rebuilt from the log, its `checks` and
 * `suspect` events replaced; everything else (messages, calls, guard decisions, the judge's
 * opinions, usage, people's marks) is copied. Guard rules shaped the dialogue and are not
 * re-run. The result is a run of its own whose source is `run` and which records today's `files`
 * (and their hash), so it can be compared with its source like any run.
 */
export function recheckRun(
  model: ProjectModel,
  files: Readonly<Record<string, string>>,
  run: string,
  events: readonly SimEvent[],
): Recheck {
  const started = runStartOf(events);
  const notes: string[] = [];
  if (!started?.database)
    notes.push(
      'The log does not record the seed rows its run started from; the project’s seed rows of today stand in for them.',
    );
  const seeded = withLoggedSeeds(model, started?.database);
  const today = new Map(handWrittenScenarios(model).map((s) => [s.id, s]));
  const logged = new Map<string, SimScenario>();
  for (const e of events) if (e.type === 'scenario') logged.set(e.scenario.id, e.scenario);
  const fromProject = new Set<string>();
  const expectationsOf = (id: string): SimScenario | undefined => {
    const now = today.get(id);
    if (now) fromProject.add(id);
    return now ?? logged.get(id);
  };
  // Every trial of a scenario started from the same rows: built once per scenario.
  const starts = new Map<string, Database>();
  const startOf = (id: string): Database => {
    let db = starts.get(id);
    if (!db) {
      db = seedDatabase(seeded, logged.get(id)?.rows ?? today.get(id)?.rows).db;
      starts.set(id, db);
    }
    return db;
  };

  // Each dialogue's own events, gathered once (transcriptOf reads only the one it is given).
  const own = new Map<string, SimEvent[]>();
  for (const e of events) {
    if (!('dialogue' in e)) continue;
    const list = own.get(e.dialogue);
    if (list) list.push(e);
    else own.set(e.dialogue, [e]);
  }
  const kept: { dialogue: string; reason: string }[] = [];
  let rechecked = 0;
  const out: SimEvent[] = [];
  for (const e of events) {
    switch (e.type) {
      case 'run-started': {
        const { shard: _shard, ...rest } = e;
        out.push({
          ...rest,
          version: LOG_VERSION,
          projectHash: projectHash(files),
          files,
          source: { kind: 'rechecked', run },
        });
        break;
      }
      case 'scenario': {
        const scenario = expectationsOf(e.scenario.id) ?? e.scenario;
        // Today's expectations on the rows the dialogues actually started from.
        const judged = { ...scenario, rows: e.scenario.rows };
        out.push({
          ...e,
          scenario: judged,
          baseline: passesWithoutAgent(judged, startOf(e.scenario.id)),
        });
        break;
      }
      case 'suspect':
        // Made again with the checks below, from today's verdict.
        break;
      case 'checks': {
        const again = judgeAgain(e.dialogue);
        if (typeof again === 'string') {
          kept.push({ dialogue: e.dialogue, reason: again });
          out.push(e, ...(own.get(e.dialogue) ?? []).filter((s) => s.type === 'suspect'));
          break;
        }
        rechecked++;
        out.push({ ...e, findings: again.findings });
        if (again.suspect.length > 0)
          out.push({ type: 'suspect', at: e.at, dialogue: e.dialogue, reasons: again.suspect });
        break;
      }
      default:
        out.push(e);
    }
  }
  return { events: out, rechecked, kept, scenariosFromProject: [...fromProject].sort(), notes };

  function judgeAgain(
    dialogue: string,
  ): { findings: Finding[]; suspect: readonly string[] } | string {
    const transcript = transcriptOf(own.get(dialogue) ?? [], dialogue);
    const id = transcript.scenario;
    const scenario = id === undefined ? undefined : expectationsOf(id);
    if (id === undefined || !scenario) return 'its scenario is not in the log.';
    const startDb = startOf(id);
    let finalDb = startDb;
    for (const change of transcript.changes) {
      const made = applyChange(seeded, finalDb, change);
      if (typeof made === 'string') return made;
      finalDb = made;
    }
    const judged = [
      ...runChecks(model.checks, transcript, groundsOf(model.prompt, scenario)),
      ...checkExpectations(
        scenario,
        transcript,
        finalDb,
        startDb,
        tableKeys(model),
        endStateCharging(model),
      ),
    ];
    // The user's own agent: what its side holds is not checked, never failed (unseen.ts).
    const findings =
      started?.externalAgent === true ? withoutUnseen(judged, model.checks, transcript) : judged;
    const ending = transcript.ending?.reason;
    if (ending === undefined || ERROR_ENDINGS.has(ending)) return { findings, suspect: [] };
    const failed = ending === 'agent-error' || findings.some((f) => findingState(f) === 'broken');
    return { findings, suspect: simulatorSuspicion(scenario, transcript, failed) };
  }
}
