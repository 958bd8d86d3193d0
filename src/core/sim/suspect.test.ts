import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { A, U, dialogue } from '../testing/dialogues.ts';
import { testScenario } from '../testing/scenarios.ts';
import { simulatorSuspicion } from './suspect.ts';

const brief = testScenario({
  goal: 'Cancel reservation TQ7H3K.',
  knows: ['user id daniela_ruiz_5120', 'e-mail daniela@example.com'],
});

describe('simulatorSuspicion', () => {
  it('flags a failed dialogue the user left right after the agent asked it for something its brief holds', () => {
    const left = dialogue([
      U('Please cancel TQ7H3K.'),
      A('Sure. Could you give me your user id?'),
      U('Bye.'),
    ]);
    expect(simulatorSuspicion(brief, left, true)).toEqual([
      'The simulated user left right after the agent asked it for something its brief holds ("user id daniela_ruiz_5120"), in its 1st reply: "Sure. Could you give me your user id?", before the agent could act on its goal.',
    ]);
    // Read from the shape, not the wording: a helpful phrase before the question changes nothing.
    const friendly = dialogue([
      U('Please cancel TQ7H3K.'),
      A('I can help with that! Could you give me the e-mail on the booking?'),
      U('Bye.'),
    ]);
    expect(simulatorSuspicion(brief, friendly, true)).toHaveLength(1);
    expect(simulatorSuspicion(brief, friendly, true)[0]).toContain(
      '("e-mail daniela@example.com")',
    );
    // A question the brief cannot answer is the agent's to get past, not the simulator's fault.
    const unknowable = dialogue([
      U('Please cancel TQ7H3K.'),
      A('Could you tell me your mother’s maiden name?'),
      U('Bye.'),
    ]);
    expect(simulatorSuspicion(brief, unknowable, true)).toEqual([]);
    // The same ending in a dialogue that passed spoils nothing; a closing question is no ask.
    expect(simulatorSuspicion(brief, left, false)).toEqual([]);
    const closing = dialogue([
      U('Please cancel TQ7H3K.'),
      A('Done. Is there anything else I can help you with?'),
      U('No, thanks.'),
    ]);
    expect(simulatorSuspicion(brief, closing, true)).toEqual([]);
    // An agent that went on acting after its question was not left waiting.
    const acted = dialogue([
      U('Please cancel TQ7H3K.'),
      A('Shall I?', { tool: 'cancel_reservation', args: { id: 'TQ7H3K' } }),
      U('Bye.'),
    ]);
    expect(simulatorSuspicion(brief, acted, true)).toEqual([]);
  });

  it('flags ids the user states that neither its brief nor the agent gave it', () => {
    const invented = dialogue([
      U('Cancel TQ7H3K please, my user id is daniela_ruiz_5120 and my card ends 4411XZ.'),
      A('Your booking ZZ9ABC is found.'),
      U('Also cancel ZZ9ABC and QQ1WWW; write to dan@example.org.'),
    ]);
    expect(simulatorSuspicion(brief, invented, false)).toEqual([
      'The simulated user said "4411XZ", "QQ1WWW", "dan@example.org", which neither its brief nor the agent had given it.',
    ]);
  });

  it('never flags a user that repeats only its brief and what it was told', () => {
    const words = fc.constantFrom(
      'TQ7H3K',
      'daniela_ruiz_5120',
      'daniela@example.com',
      'please',
      'cancel',
      '24 hours',
      'thanks',
      'R2D2',
    );
    fc.assert(
      fc.property(fc.array(words, { maxLength: 8 }), fc.array(words, { maxLength: 8 }), (a, b) => {
        const transcript = dialogue([
          U(a.filter((w) => w !== 'R2D2').join(' ')),
          A('Your droid R2D2 is booked.'),
          U(b.join(' ')),
        ]);
        expect(simulatorSuspicion(brief, transcript, false)).toEqual([]);
      }),
    );
  });
});
