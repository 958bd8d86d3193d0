import { describe, expect, it } from 'vitest';
import { replayOf } from '../../core/index.ts';
import { simulatePhone } from '../../test/phoneDesk.ts';
import { stepName } from './Stepper.tsx';

describe('stepName', () => {
  it('names the setup’s and the customer’s own calls as theirs', async () => {
    const replay = replayOf(await simulatePhone(true), 'no-data#1');
    const calls = replay.steps.filter((s) => s.kind === 'call').map(stepName);
    expect(calls).toEqual([
      'the setup’s call to toggle_data',
      'a call to get_line',
      'the customer’s own call to toggle_data',
    ]);
  });
});
