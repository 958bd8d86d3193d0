// Parses the whole project and answers the editor's go to definition, find references and rename
// off the main thread, so those never freeze typing on a big project.
import type { IdeRequest } from './ideProtocol.ts';
import { createIdeServer } from './ideProtocol.ts';

const serve = createIdeServer();

self.onmessage = (event: MessageEvent<IdeRequest>) => {
  self.postMessage(serve(event.data));
};
