import { describe, expect, it } from 'vitest';
import { analyzeProject } from '../../core/index.ts';
import { MINI_FILES } from '../../core/testing/miniProject.ts';
import { withManyOrders, withManyPolicies, withManyScenarios } from './bigProject.ts';

// The big projects e2e/bigRun.spec.ts runs and plays: big to parse, but clean, so neither the
// problems list nor the graph grows with them (the page's thread would be measured drawing them).
describe('big projects', () => {
  const base = analyzeProject({ name: 'Mini', files: MINI_FILES }).diagnostics.length;
  const grown = [
    ['orders', withManyOrders(MINI_FILES, 500), 'database.yaml'],
    ['scenarios', withManyScenarios(MINI_FILES, 500), 'scenarios.yaml'],
    ['policies', withManyPolicies(MINI_FILES, 500), 'policies.yaml'],
  ] as const;
  for (const [name, files, file] of grown)
    it(`with many ${name} read as written, adding what they add and nothing else`, () => {
      const analysis = analyzeProject({ name, files: files as typeof MINI_FILES });
      const { model } = analysis;
      const count =
        file === 'database.yaml'
          ? (model.tables.find((t) => t.name === 'orders')?.rows.length ?? 0) -
            (analyzeProject({ name, files: MINI_FILES }).model.tables.find(
              (t) => t.name === 'orders',
            )?.rows.length ?? 0)
          : file === 'scenarios.yaml'
            ? model.scenarios.filter((s) => s.id.startsWith('asks-again-')).length
            : model.policies.filter((p) => p.id.startsWith('extra-')).length;
      expect(count).toBe(500);
      expect(analysis.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      if (file !== 'policies.yaml') expect(analysis.diagnostics).toHaveLength(base);
    });
});
