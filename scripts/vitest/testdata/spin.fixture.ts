import { it } from 'vitest';

it('passes', () => undefined);

it('spins for ever', () => {
  for (;;) {
    // Never awaits: Vitest's own time limit cannot fire here.
  }
});
