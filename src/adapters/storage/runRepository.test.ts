import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import {
  APPEND_SLICE,
  createIndexedDbRunRepository,
  createMemoryRunRepository,
} from './runRepository.ts';

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

describe('IndexedDB run repository, a big log', () => {
  it('appends it slice by slice in order, and writes none of it when a slice fails', async () => {
    const runs = createIndexedDbRunRepository(`runs-test-${Math.random()}`);
    await runs.create({ id: 'r', projectId: 'p', createdAt: '2026-11-24T10:00:00Z', title: 'big' });
    const big = Array.from({ length: APPEND_SLICE * 2 + 5 }, (_, i) => ({ type: 'e', i }));
    await runs.append('r', 0, big);
    expect(await runs.events('r')).toEqual(big);

    await runs.create({ id: 's', projectId: 'p', createdAt: '2026-11-24T11:00:00Z', title: 'bad' });
    // A function cannot be stored: the second slice fails, after the first was put.
    const bad = big.map((e, i) => (i === APPEND_SLICE + 1 ? { ...e, f: () => i } : e));
    await expect(runs.append('s', 0, bad)).rejects.toThrow();
    expect(await runs.events('s')).toEqual([]);
  });
});
