import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readAgreement } from './agreement.ts';
import { AGREEMENT_CORPUS } from './testdata/agreements.ts';

const misreads = AGREEMENT_CORPUS.map(({ text, reading }) => ({
  text,
  expected: reading,
  read: readAgreement(text),
})).filter(({ expected, read }) => read.reading !== expected);
const shown = (list: typeof misreads): string =>
  list
    .map(
      (m) => `  ${m.expected} read as ${m.read.reading} (${m.read.cue ?? 'no cue'}): "${m.text}"`,
    )
    .join('\n');
const readAs = (reading: 'agrees' | 'refuses' | 'unclear') =>
  AGREEMENT_CORPUS.filter(
    (r) => r.reading === reading && readAgreement(r.text).reading === reading,
  ).map((r) => r.text);

describe('readAgreement on the labelled corpus', () => {
  it('holds at least 300 replies of every kind', () => {
    expect(AGREEMENT_CORPUS.length).toBeGreaterThanOrEqual(300);
    for (const reading of ['agrees', 'refuses', 'unclear'] as const)
      expect(AGREEMENT_CORPUS.filter((r) => r.reading === reading).length).toBeGreaterThan(80);
  });

  it('never reads a yes as a no or a no as a yes', () => {
    const crossed = misreads.filter(
      (m) => m.read.reading !== 'unclear' && m.expected !== 'unclear',
    );
    expect(crossed, `yes and no confused:\n${shown(crossed)}`).toEqual([]);
  });

  it('reads at least 97% of the replies as labelled', () => {
    const right = 1 - misreads.length / AGREEMENT_CORPUS.length;
    expect(right, `${misreads.length} misread:\n${shown(misreads)}`).toBeGreaterThanOrEqual(0.97);
  });
});

describe('readAgreement', () => {
  it('names the words that decided', () => {
    expect(readAgreement("No, don't cancel")).toEqual({ reading: 'refuses', cue: 'no' });
    expect(readAgreement('I am not sure.')).toEqual({ reading: 'refuses', cue: 'not sure' });
    expect(readAgreement('Absolutely not.')).toEqual({ reading: 'refuses', cue: 'absolutely not' });
    expect(readAgreement('pls dont')).toEqual({ reading: 'refuses', cue: 'dont' });
    expect(readAgreement('Sure, do it')).toEqual({ reading: 'agrees', cue: 'do it' });
    // An unclear reply says why: a condition and a question are never a yes (confirmations.ts).
    expect(readAgreement("yes if it's under $50")).toEqual({
      reading: 'unclear',
      cue: "if it's under $50",
      why: 'condition',
    });
    expect(readAgreement('hmm, what would that cost?')).toEqual({
      reading: 'unclear',
      cue: 'hmm, what would that cost?',
      why: 'question',
    });
    expect(readAgreement('No, go ahead.')).toEqual({
      reading: 'unclear',
      cue: 'no … go ahead',
      why: 'mixed',
    });
    expect(readAgreement('hmm')).toEqual({ reading: 'unclear', cue: 'hmm', why: 'filler' });
  });

  it('gives no cue when the reply answers nothing (a bare request needs asking first)', () => {
    expect(readAgreement('Please cancel ABC123')).toEqual({ reading: 'unclear' });
    expect(readAgreement('')).toEqual({ reading: 'unclear' });
  });

  it('reads a hedged yes as unclear, and being undecided as no answer yet', () => {
    const hedge = (cue: string) => ({ reading: 'unclear', cue, why: 'hedge' });
    expect(readAgreement('yeah I guess')).toEqual(hedge('i guess'));
    expect(readAgreement('Ok maybe')).toEqual(hedge('maybe'));
    expect(readAgreement('Yes, probably.')).toEqual(hedge('probably'));
    expect(readAgreement("I don't know.")).toEqual({ reading: 'refuses', cue: "i don't know" });
  });

  it('lets the words after a correction decide', () => {
    expect(readAgreement('Yes. Actually no, wait.').reading).toBe('refuses');
    expect(readAgreement('No wait, actually yes, go ahead.').reading).toBe('agrees');
    expect(readAgreement('Never mind my question, go ahead.').reading).toBe('agrees');
    expect(readAgreement('Sure, but not today.').reading).toBe('refuses');
  });
});

describe('confirmations in five registers', () => {
  // Natural yeses a customer gives, five per register: never flagged.
  const YES: Record<string, readonly string[]> = {
    formal: [
      'Yes, please proceed.',
      'I confirm, please go ahead.',
      'That is correct, you may proceed.',
      'Yes, I would like that, thank you.',
      'Certainly, please do.',
    ],
    casual: [
      'Perfect, let’s do that.',
      'Yes please, no need to email me.',
      'Sure thing, go for it.',
      'Yeah that works for me.',
      'Sounds good, thanks!',
    ],
    texting: ['yep do it', 'ya go ahead', 'k', 'ok cool', 'yes pls'],
    british: [
      'Yes please, that’d be brilliant.',
      'Lovely, go on then.',
      'Right, yes, carry on.',
      'Cheers, yes.',
      'Go ahead, that’s fine.',
    ],
    emphatic: [
      'Absolutely!',
      'YES. Do it now.',
      'Of course, 100%.',
      'Definitely 👍',
      'Oh yes please!',
    ],
  };
  // Questions back and conditions, in the same registers: never a yes.
  const NOT_YES: Record<string, readonly [string, 'question' | 'condition'][]> = {
    formal: [
      ['Could you tell me what the fee would be?', 'question'],
      ['Yes, provided there is no fee.', 'condition'],
    ],
    casual: [
      ['Wait, how long will it take?', 'question'],
      ['Sure, as long as it’s free.', 'condition'],
    ],
    texting: [
      ['is it free?', 'question'],
      ['ok if its free', 'condition'],
    ],
    british: [
      ['Would that cost me anything?', 'question'],
      ['Yes, so long as nothing else changes.', 'condition'],
    ],
    emphatic: [
      ['Really?! What does that change?', 'question'],
      ['YES but only if it arrives before Friday!', 'condition'],
    ],
  };

  for (const [register, replies] of Object.entries(YES))
    it(`reads every natural yes as agreeing (${register})`, () => {
      for (const reply of replies) expect(readAgreement(reply).reading, reply).toBe('agrees');
    });

  for (const [register, replies] of Object.entries(NOT_YES))
    it(`never reads a question or a condition as a yes (${register})`, () => {
      for (const [reply, why] of replies)
        expect(readAgreement(reply), reply).toMatchObject({ reading: 'unclear', why });
    });
});

describe('readAgreement properties', () => {
  const refusals = readAs('refuses');
  const fillers = [
    'hmm',
    'well',
    'honestly',
    'oh',
    'um',
    'so',
    'look',
    'sorry',
    'ah',
    'lol',
    'to be honest',
  ];
  const joins = [', ', ' ', '... ', '. ', ' - '];

  it('filler before a clear refusal never turns it into a yes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...fillers),
        fc.constantFrom(...joins),
        fc.constantFrom(...refusals),
        (filler, join, refusal) => readAgreement(`${filler}${join}${refusal}`).reading !== 'agrees',
      ),
      // About 5,000 combinations, a few of them refusals with only a weak "no" in them.
      { numRuns: 3000 },
    );
  });

  it('filler and a comma before a clear refusal keep it a refusal', () => {
    fc.assert(
      fc.property(fc.constantFrom(...fillers), fc.constantFrom(...refusals), (filler, refusal) => {
        expect(readAgreement(`${filler}, ${refusal}`).reading).toBe('refuses');
      }),
      { numRuns: 1000 },
    );
  });

  it('a thanks, an emoji or capitals never change a reading', () => {
    const texts = AGREEMENT_CORPUS.map((r) => r.text);
    fc.assert(
      fc.property(
        fc.constantFrom(...texts),
        fc.constantFrom(' thanks!', ' Thanks.', ' thank you', ' thx', ' 🙂', '!!'),
        fc.boolean(),
        (text, tail, loud) => {
          const changed = `${text}${tail}`;
          const { reading } = readAgreement(text);
          expect(readAgreement(changed).reading).toBe(reading);
          if (loud) expect(readAgreement(text.toUpperCase()).reading).toBe(reading);
        },
      ),
      { numRuns: 500 },
    );
  });
});
