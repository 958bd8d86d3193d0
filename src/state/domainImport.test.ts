import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { testServices } from '../test/services.ts';
import { createAppStore } from './createAppStore.ts';
import type { IncomingFile } from './slices/shareSlice.ts';

const testdata = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  '..',
  'core',
  'import',
  'testdata',
);

/** A fixture domain's files as a dropped folder gives them: "folder/sub/file". */
function dropped(fixture: string, as: string): IncomingFile[] {
  const root = path.join(testdata, fixture);
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const full = path.join(e.parentPath, e.name);
      return { name: `${as}/${path.relative(root, full)}`, bytes: readFileSync(full) };
    });
}

const zipOf = (files: readonly IncomingFile[]) =>
  zipSync(Object.fromEntries(files.map((f) => [f.name, f.bytes])));

/** A store with the person's own project open and saved: the thing an import must never touch. */
async function storeWithOwnWork() {
  const store = createAppStore(testServices({}));
  await store.getState().boot({ fresh: true });
  store.getState().setFileText('agent.md', '# My own agent, being written.\n');
  await store.getState().saveNow();
  return { store, own: { id: store.getState().projectId, files: store.getState().project.files } };
}

describe('importing a tau2-bench or IntellAgent domain in the page', () => {
  it('imports a dropped tau2 domain folder as a new project and reports what it left out', async () => {
    const { store, own } = await storeWithOwnWork();
    await store.getState().importFiles(dropped('tau2-library', 'library'));
    const state = store.getState();
    expect(state.shareNotice).toBeNull();
    expect(state.projectId).not.toBe(own.id);
    expect(state.project.name).toBe('library');
    expect(state.project.files['tools.yaml']).toContain('lend_book');
    expect(state.arrival).toMatchObject({ name: 'library', previous: own.id });
    const report = state.importReport;
    expect(report).toMatchObject({ projectName: 'library', source: 'tau2-bench' });
    expect(report?.summary).toContain('5 tools, 3 tables');
    expect(report?.notCarried).toContainEqual(
      expect.objectContaining({ file: 'tools.yaml', item: 'user tool scan_card' }),
    );
    expect(report?.counts.error).toBe(0);
    expect(report?.text).toMatch(
      /- tool lend_book: "No copy of \{book_id\} left" names values of the call/,
    );
    expect(report?.text).toContain('policylab check: 0 errors');

    // The person's own project is exactly as it was.
    await store.getState().openProject(own.id);
    expect(store.getState().project.files).toEqual(own.files);
  });

  it('imports a zip of an IntellAgent input with one top folder, naming it after that folder', async () => {
    const { store, own } = await storeWithOwnWork();
    const files = dropped('intellagent-gym', 'gym/input');
    await store.getState().importFiles([{ name: 'gym.zip', bytes: zipOf(files) }]);
    const state = store.getState();
    expect(state.shareNotice).toBeNull();
    expect(state.projectId).not.toBe(own.id);
    expect(state.project.name).toBe('gym');
    expect(state.project.files['database.yaml']).toContain('members');
    expect(state.importReport?.source).toBe('IntellAgent');
    // broken.py's get_info() is not a literal schema: said, with where it is.
    expect(state.importReport?.notRead).toContainEqual({
      item: 'tools/broken.py: Broken.get_info',
      message: expect.stringMatching(/the tool is left out\. \(tools\/broken\.py:3\)$/) as string,
    });
  });

  it('imports the files of a flat tau2 domain picked together', async () => {
    const { store } = await storeWithOwnWork();
    const flat = dropped('tau2-library', 'x').map((f) => ({
      ...f,
      name: path.basename(f.name),
    }));
    await store.getState().importFiles(flat);
    expect(store.getState().importReport?.source).toBe('tau2-bench');
    expect(store.getState().project.files['scenarios.yaml']).not.toBe('');
  });

  it('refuses bad input in words, and the open project and the library stay as they were', async () => {
    const { store, own } = await storeWithOwnWork();
    const cases: Array<[string, IncomingFile[], string]> = [
      [
        'two domains',
        [...dropped('tau2-library', 'a'), ...dropped('tau2-library', 'b')],
        'more than one domain',
      ],
      [
        'a damaged entry',
        [{ name: 'lib.zip', bytes: damaged(zipOf(dropped('tau2-library', 'lib'))) }],
        'This zip is damaged',
      ],
    ];
    for (const [what, files, said] of cases) {
      await store.getState().importFiles(files);
      expect(store.getState().shareNotice?.message, what).toContain(said);
      expect(store.getState().importReport, what).toBeNull();
      expect(store.getState().projectId, what).toBe(own.id);
      expect(store.getState().project.files, what).toEqual(own.files);
      expect(store.getState().projects, what).toHaveLength(1);
    }
  });

  it('still opens a project zip as a project, even with a domain’s sources kept beside it', async () => {
    const { store } = await storeWithOwnWork();
    const own = store.getState().project.files;
    const zip = zipSync({
      ...Object.fromEntries(Object.entries(own).map(([n, t]) => [`desk/${n}`, strToU8(t)])),
      ...Object.fromEntries(
        dropped('tau2-library', 'desk/source').map((f) => [f.name, new Uint8Array(f.bytes)]),
      ),
    });
    await store.getState().importFiles([{ name: 'desk.zip', bytes: zip }]);
    expect(store.getState().shareNotice?.kind).toBe('duplicate');
    expect(store.getState().importReport).toBeNull();
  });

  it('Undo takes the imported project and its report away', async () => {
    const { store, own } = await storeWithOwnWork();
    await store.getState().importFiles(dropped('tau2-library', 'library'));
    await store.getState().undoArrival();
    expect(store.getState().projectId).toBe(own.id);
    expect(store.getState().importReport).toBeNull();
    expect(store.getState().projects).toHaveLength(1);
  });
});

/** Flips bytes inside the zip's largest entry (db.json), so its checksum no longer holds. */
function damaged(zip: Uint8Array): Uint8Array {
  const copy = zip.slice();
  const name = strToU8('lib/data/db.json');
  for (let i = 0; i < copy.length - name.length; i++)
    if (name.every((b, j) => copy[i + j] === b)) {
      const at = i + name.length + 40;
      copy[at] = (copy[at] ?? 0) ^ 0xff;
      copy[at + 1] = (copy[at + 1] ?? 0) ^ 0xff;
      break;
    }
  return copy;
}
