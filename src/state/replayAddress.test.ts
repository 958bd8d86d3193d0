import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readReplayPlace, withReplayPlace } from './replayAddress.ts';

describe('the replay’s place in the address', () => {
  it('writes and reads back a run, a dialogue and a step (counted from 1 in the address)', () => {
    const href = withReplayPlace('https://x.test/app/?theme=dark#top', {
      run: 'run-1',
      dialogue: 'late#2',
      step: 4,
    });
    expect(href).toBe('https://x.test/app/?theme=dark&run=run-1&dialogue=late%232&step=5#top');
    expect(readReplayPlace(new URL(href).search)).toEqual({
      run: 'run-1',
      dialogue: 'late#2',
      step: 4,
    });
    expect(withReplayPlace(href, null)).toBe('https://x.test/app/?theme=dark#top');
  });

  it('leaves out what it cannot read instead of guessing', () => {
    expect(readReplayPlace('?dialogue=a')).toBeNull();
    expect(readReplayPlace('?run=r&step=zero')).toEqual({ run: 'r' });
    expect(readReplayPlace('?run=r&step=-3')).toEqual({ run: 'r' });
    expect(readReplayPlace('?run=r&step=0')).toEqual({ run: 'r' });
  });

  it('round-trips any place', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((s) => s.trim() !== ''),
        fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
        fc.nat(10_000),
        (run, dialogue, step) => {
          const place = { run, ...(dialogue !== undefined && { dialogue, step }) };
          expect(
            readReplayPlace(new URL(withReplayPlace('https://x.test/', place)).search),
          ).toEqual(place);
        },
      ),
    );
  });
});
