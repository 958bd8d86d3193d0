import type { SimEvent } from './events.ts';

/** A sampled combination the generator could not write a valid scenario for. */
export interface GenerationFailureReport {
  readonly policies: readonly string[];
  readonly level: number;
  readonly error: string;
  /** Requests made to the generator for it; null when the log does not say. */
  readonly attempts: number | null;
}

/**
 * How writing scenarios for sampled combinations went: `asked` is every combination the
 * generator finished with (`written` + failed); a cancelled run leaves the rest out.
 */
export interface GenerationReport {
  readonly asked: number;
  readonly written: number;
  /** In the samples' order. */
  readonly failed: readonly GenerationFailureReport[];
}

/**
 * How writing scenarios for samples went, from the log: each `scenario-failed` event, and each
 * generated `scenario` logged after the generator was first called (the plan's own scenarios,
 * generated or not, are logged before it). Null when the run wrote no scenario from a sample.
 */
export function generationOf(events: readonly SimEvent[]): GenerationReport | null {
  const failed: GenerationFailureReport[] = [];
  let generatorCalled = false;
  let written = 0;
  for (const e of events) {
    if (e.type === 'usage' && e.role === 'generator') generatorCalled = true;
    else if (e.type === 'scenario' && e.source === 'generated' && generatorCalled) written++;
    else if (e.type === 'scenario-failed') {
      const { policies, level } = e.sample;
      failed.push({ policies, level, error: e.error, attempts: e.attempts ?? null });
    }
  }
  return written + failed.length === 0 ? null : { asked: written + failed.length, written, failed };
}
