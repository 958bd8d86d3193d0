import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { miniProject, miniWith } from '../../testing/miniProject.ts';
import { exampleProjects, runChecker } from './checkerFixtures.ts';
import { checkForeignKeys } from './foreignKeys.ts';

const examples = exampleProjects((path) => readFileSync(path, 'utf8'));

describe('checkForeignKeys', () => {
  it('finds nothing in the mini project and the examples', () => {
    for (const project of [miniProject(), ...examples])
      expect(runChecker(checkForeignKeys, project), project.name).toEqual([]);
  });

  it('points at a value that is no key of the referenced table', () => {
    const project = miniWith('database.yaml', 'user_id: u2', 'user_id: u9');
    expect(runChecker(checkForeignKeys, project)).toEqual([
      'database.yaml:19:28 "u9" error missing-row: No row of "users" has id "u9".',
    ]);
  });

  it('lets an empty value be (whether it may be empty is the table check)', () => {
    const project = miniWith('database.yaml', 'user_id: u2', 'user_id: null');
    expect(runChecker(checkForeignKeys, project)).toEqual([]);
  });

  it('leaves a reference to a missing table to the table check', () => {
    const project = miniWith('database.yaml', 'references: users', 'references: user');
    expect(runChecker(checkForeignKeys, project)).toEqual([]);
  });
});
