import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { MINI_FILES } from '../../core/testing/miniProject.ts';
import { createIndexedDbRepository } from './projectRepository.ts';

const project = (id: string, updatedAt: string) => ({
  id,
  name: `Project ${id}`,
  files: MINI_FILES,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt,
});

describe('createIndexedDbRepository', () => {
  it('stores, lists newest first, reads back and removes projects', async () => {
    const repository = createIndexedDbRepository('policylab-test-1');
    await repository.put(project('a', '2026-01-01T00:00:01.000Z'));
    await repository.put(project('b', '2026-01-01T00:00:02.000Z'));
    expect((await repository.list()).map((p) => p.id)).toEqual(['b', 'a']);
    expect((await repository.get('a'))?.files).toEqual(MINI_FILES);
    await repository.put({ ...project('a', '2026-01-01T00:00:03.000Z'), name: 'Renamed' });
    expect(await repository.list()).toEqual([
      { id: 'a', name: 'Renamed', updatedAt: '2026-01-01T00:00:03.000Z' },
      { id: 'b', name: 'Project b', updatedAt: '2026-01-01T00:00:02.000Z' },
    ]);
    await repository.remove('b');
    expect(await repository.get('b')).toBeUndefined();
  });
});
