// Lays the policy graph out off the main thread, so dragging and typing never wait for it.
import type { LayoutRequest, LayoutResponse } from './layoutProtocol.ts';
import { answerLayoutRequest } from './layoutProtocol.ts';

self.onmessage = (event: MessageEvent<LayoutRequest>) => {
  answerLayoutRequest(event.data, (response: LayoutResponse) => {
    self.postMessage(response);
  });
};
