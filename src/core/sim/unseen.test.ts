import { describe, expect, it } from 'vitest';
import { testCheck } from '../testing/checks.ts';
import { A, U, dialogue } from '../testing/dialogues.ts';
import type { Finding } from './events.ts';
import { withoutUnseen } from './unseen.ts';

const failed = (id: string, policy: string): Finding => ({
  id,
  policy,
  passed: false,
  detail: 'x',
});
const checks = [
  testCheck('never_call', { id: 'no-deletes' }),
  testCheck('must_not_say', { id: 'no-codes' }),
];
const findings = [
  failed('no-deletes', 'a'),
  failed('no-codes', 'b'),
  failed('expected.database[0]', 'c'),
  failed('expected.required_actions[1]', 'c'),
  failed('expected.must_say[0]', 'd'),
  failed('expected.end_state', 'e'),
];

describe('withoutUnseen', () => {
  it('marks not checked what only the agent’s side could show, and keeps what it said', () => {
    const words = dialogue([U('Hi'), A('Hello, INT-1234')]);
    expect(withoutUnseen(findings, checks, words).map((f) => [f.id, f.passed])).toEqual([
      ['no-deletes', true],
      ['no-codes', false],
      ['expected.database[0]', true],
      ['expected.required_actions[1]', true],
      ['expected.must_say[0]', false],
      ['expected.end_state', true],
    ]);
    expect(withoutUnseen(findings, checks, words)[0]?.detail).toMatch(/^Skipped: not checked\./);
  });

  it('judges an agent that reports its calls on them', () => {
    const reported = dialogue([U('Hi'), A('', { tool: 'delete_user' })]);
    expect(withoutUnseen(findings, checks, reported)).toEqual(findings);
  });
});
