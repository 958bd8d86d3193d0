import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createIndexedDbRunRepository, createMemoryRunRepository } from './runRepository.ts';

for (const [name, make] of [
  ['IndexedDB', () => createIndexedDbRunRepository(`runs-test-${Math.random()}`)],
  ['memory', createMemoryRunRepository],
] as const) {
  describe(`${name} run repository`, () => {
    it('keeps each run’s log in order as it grows, per project, and deletes it whole', async () => {
      const runs = make();
      await runs.create({
        id: 'r1',
        projectId: 'p1',
        createdAt: '2026-11-21T10:00:00Z',
        title: 'first',
      });
      await runs.create({
        id: 'r2',
        projectId: 'p1',
        createdAt: '2026-11-21T11:00:00Z',
        title: 'second',
      });
      await runs.create({
        id: 'r3',
        projectId: 'p2',
        createdAt: '2026-11-21T12:00:00Z',
        title: 'other',
      });
      await runs.append('r1', 0, [{ type: 'a' }, { type: 'b' }]);
      await runs.append('r1', 2, [{ type: 'c' }]);
      await runs.append('r2', 0, [{ type: 'x' }]);
      expect((await runs.list('p1')).map((r) => r.id)).toEqual(['r2', 'r1']);
      expect(await runs.events('r1')).toEqual([{ type: 'a' }, { type: 'b' }, { type: 'c' }]);
      await runs.remove('r1');
      expect((await runs.list('p1')).map((r) => r.id)).toEqual(['r2']);
      expect(await runs.events('r1')).toEqual([]);
      expect(await runs.events('r2')).toEqual([{ type: 'x' }]);
    });
  });
}
