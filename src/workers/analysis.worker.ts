// Reads and lints projects off the main thread, so typing never waits for it.
import { analyzeProject } from '../core/index.ts';
import type { AnalyzeRequest, AnalyzeResponse } from './protocol.ts';

self.onmessage = (event: MessageEvent<AnalyzeRequest>) => {
  const { id, project } = event.data;
  let response: AnalyzeResponse;
  try {
    const { model, diagnostics } = analyzeProject(project);
    response = { id, ok: true, model, diagnostics };
  } catch (error) {
    response = { id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(response);
};
