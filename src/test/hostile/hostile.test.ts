import { describe, expect, it } from 'vitest';
import { analyzeProject } from '../../core/index.ts';
import { HOSTILE_CHECK_INPUTS } from './checkInputs.ts';

// Speed is proven by `npm run bench` (check_ms_60k, check_ms_refbomb); this proves each input
// is answered with a clear message and no exception. The generous timeout only keeps a slow
// machine from failing a test that is not about time.
describe('check on hostile inputs', () => {
  for (const input of HOSTILE_CHECK_INPUTS) {
    it(`answers ${input.name} with a clear message`, { timeout: 120_000 }, () => {
      const project = input.make();
      const analysis = analyzeProject(project);
      expect(analysis.diagnostics.some((d) => input.says.test(d.message))).toBe(true);
      for (const d of analysis.diagnostics) {
        expect(d.line).toBeGreaterThanOrEqual(1);
        expect(d.message).not.toMatch(/undefined|NaN|\[object/);
      }
    });
  }
});
