import { describe, expect, it } from 'vitest';
import { MODEL_CATALOGUE, catalogueModel } from './catalogue.ts';

describe('MODEL_CATALOGUE', () => {
  it('lists Hugging Face .gguf files under unique ids, some of them fit for a CPU', () => {
    const ids = MODEL_CATALOGUE.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const model of MODEL_CATALOGUE) {
      expect(model.url).toMatch(
        /^https:\/\/huggingface\.co\/[\w.-]+\/[\w.-]+\/resolve\/main\/.+\.gguf$/,
      );
      expect(model.sizeBytes).toBeGreaterThan(500_000_000);
      expect(model.contextSize).toBeGreaterThanOrEqual(4096);
      expect(catalogueModel(model.url)).toBe(model);
    }
    expect(MODEL_CATALOGUE.some((m) => m.cpu)).toBe(true);
  });
});
