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
    expect(readAgreement("yes if it's under $50")).toEqual({
      reading: 'unclear',
      cue: "if it's under $50",
    });
    expect(readAgreement('hmm, what would that cost?')).toEqual({
      reading: 'unclear',
      cue: 'hmm, what would that cost?',
    });
    expect(readAgreement('No, go ahead.')).toEqual({ reading: 'unclear', cue: 'no … go ahead' });
  });

  it('gives no cue when the reply answers nothing (a bare request needs asking first)', () => {
    expect(readAgreement('Please cancel ABC123')).toEqual({ reading: 'unclear' });
    expect(readAgreement('')).toEqual({ reading: 'unclear' });
  });

  it('reads a hedged yes as unclear, and being undecided as no answer yet', () => {
    expect(readAgreement('yeah I guess')).toEqual({ reading: 'unclear', cue: 'i guess' });
    expect(readAgreement('Ok maybe')).toEqual({ reading: 'unclear', cue: 'maybe' });
    expect(readAgreement('Yes, probably.')).toEqual({ reading: 'unclear', cue: 'probably' });
    expect(readAgreement("I don't know.")).toEqual({ reading: 'refuses', cue: "i don't know" });
  });

  it('lets the words after a correction decide', () => {
    expect(readAgreement('Yes. Actually no, wait.').reading).toBe('refuses');
    expect(readAgreement('No wait, actually yes, go ahead.').reading).toBe('agrees');
    expect(readAgreement('Never mind my question, go ahead.').reading).toBe('agrees');
    expect(readAgreement('Sure, but not today.').reading).toBe('refuses');
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
