import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy… and waitFor give up after 30 s rather than 1 s: on a busy machine an analysis or a
// render can take seconds, and a wait that gives up early turns a good change red.
configure({ asyncUtilTimeout: 30_000 });

afterEach(() => {
  cleanup();
});
