import type { FileDiff } from '../fileDiff.ts';
import { diffFiles } from '../fileDiff.ts';
import { projectHash } from '../project.ts';
import type { SimEvent } from './events.ts';
import { runStartOf } from './events.ts';

/*
 * What changed in the project between two runs: the files each run's `run-started` recorded, set
 * side by side. Only files whose hash matches the hash the run recorded are trusted: a log edited
 * by hand (or by anyone) cannot show a diff of files the run never judged.
 */

/** How the project files of two runs differ, or why that cannot be said. */
export type ProjectChanges =
  | { readonly kind: 'same' }
  | { readonly kind: 'changed'; readonly files: readonly FileDiff[] }
  | {
      readonly kind: 'unknown';
      /** Why, per run that cannot show its files (in words). */
      readonly reasons: readonly string[];
    };

/** The files a run judged, or why they cannot be shown. */
function filesOf(events: readonly SimEvent[], side: string): Record<string, string> | string {
  const started = runStartOf(events);
  if (!started) return `The ${side} run’s log has no start.`;
  if (!started.files)
    return `The ${side} run did not record its files (runs saved before runs kept their files).`;
  if (projectHash(started.files) !== started.projectHash)
    return `The files the ${side} run’s log holds are not the files it judged (their hash is not the run’s project hash).`;
  return { ...started.files };
}

/**
 * The project changes from the `before` run to the `after` run. The same project hash is `same`
 * without looking further; otherwise the two runs' recorded files are diffed.
 */
export function projectChanges(
  before: readonly SimEvent[],
  after: readonly SimEvent[],
): ProjectChanges {
  const hash = runStartOf(before)?.projectHash;
  if (hash !== undefined && hash === runStartOf(after)?.projectHash) return { kind: 'same' };
  const older = filesOf(before, 'before');
  const newer = filesOf(after, 'after');
  if (typeof older === 'string' || typeof newer === 'string')
    return { kind: 'unknown', reasons: [older, newer].filter((f) => typeof f === 'string') };
  return { kind: 'changed', files: diffFiles(older, newer) };
}
