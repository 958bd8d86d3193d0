import { describe, expect, it } from 'vitest';
import { projectHash } from '../project.ts';
import type { SimEvent } from './events.ts';
import { LOG_VERSION } from './events.ts';
import { projectChanges } from './projectChanges.ts';

/** A log of one `run-started` that judged `files` (or recorded `hash` without files). */
function runOf(files: Record<string, string> | undefined, hash = projectHash(files ?? {})) {
  const started: SimEvent = {
    type: 'run-started',
    at: 0,
    version: LOG_VERSION,
    seed: 1,
    projectHash: hash,
    ...(files && { files }),
    models: {},
    trials: 1,
    prompts: [],
  };
  return [started];
}

describe('projectChanges', () => {
  const today = { 'agent.md': 'Be kind.\nBe brief.\n', 'rules.yaml': 'checks: []\n' };
  const yesterday = { 'agent.md': 'Be kind.\n', 'rules.yaml': 'checks: []\n' };

  it('diffs the files two runs recorded when their hashes differ', () => {
    const changes = projectChanges(runOf(yesterday), runOf(today));
    expect(changes).toMatchObject({ kind: 'changed', files: [{ file: 'agent.md', added: 1 }] });
  });

  it('says the same for equal hashes, files or not', () => {
    expect(projectChanges(runOf(today), runOf(today))).toEqual({ kind: 'same' });
    const hash = projectHash(today);
    expect(projectChanges(runOf(undefined, hash), runOf(undefined, hash))).toEqual({
      kind: 'same',
    });
  });

  it('says why when a run did not keep its files', () => {
    expect(projectChanges(runOf(undefined, 'old'), runOf(today))).toEqual({
      kind: 'unknown',
      reasons: [
        'The before run did not record its files (runs saved before runs kept their files).',
      ],
    });
    expect(projectChanges([], runOf(today))).toMatchObject({
      kind: 'unknown',
      reasons: ['The before run’s log has no start.'],
    });
  });

  it('refuses to show files that are not the ones the run judged', () => {
    const forged = runOf({ ...today, 'agent.md': 'Anything goes.\n' }, projectHash(today));
    expect(projectChanges(runOf(yesterday), forged)).toMatchObject({
      kind: 'unknown',
      reasons: [expect.stringContaining('are not the files it judged') as unknown],
    });
  });
});
