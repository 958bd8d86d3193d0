// Imports a dropped tau2-bench or IntellAgent domain off the main thread: a large database takes
// long enough to parse and slice that the page would freeze.
import type { DroppedFile } from '../core/import/drop.ts';
import { importDrop } from '../core/import/drop.ts';

self.onmessage = (event: MessageEvent<readonly DroppedFile[]>) => {
  self.postMessage(importDrop(event.data));
};
