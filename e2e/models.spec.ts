import type { Page } from '@playwright/test';
import { TINY_GGUF, writeTinyGguf } from '../src/core/testing/gguf.ts';
import type { ModelFileServer } from '../src/test/servers/modelFileServer.ts';
import { startModelFileServer } from '../src/test/servers/modelFileServer.ts';
import type { TestServer } from '../src/test/servers/http.ts';
import { startOpenAIServer } from '../src/test/servers/openaiServer.ts';
import { expect, test } from './fixtures.ts';

const KEY = 'sk-e2e-7d41f9a0c3b2e8d6';

async function openModels(page: Page, tab: 'Roles' | 'In this browser' | 'Endpoints' | 'Prices') {
  await page.getByRole('banner').getByRole('button', { name: 'Models' }).click();
  const dialog = page.getByRole('dialog', { name: 'Models' });
  await dialog.getByRole('tab', { name: tab }).click();
  return dialog;
}

/** Adds an OpenAI-compatible endpoint pointing at `url` through the form, as a user does. */
async function addEndpoint(page: Page, url: string, model: string, key?: string) {
  const dialog = await openModels(page, 'Endpoints');
  await dialog.getByRole('button', { name: '+ Other' }).click();
  const card = dialog.getByRole('listitem', { name: 'Custom' });
  await card.getByLabel('Base URL').fill(url);
  await card.getByLabel('Model').fill(model);
  if (key) await card.getByLabel('API key').fill(key);
  return card;
}

test.describe('a model in the browser', () => {
  let files: ModelFileServer;
  // A tiny scripted model: greedy decoding spells a tool call.
  const model = writeTinyGguf({ ...TINY_GGUF, scripted: true });
  test.beforeAll(async () => {
    // Served slowly enough that the download's progress is visible.
    files = await startModelFileServer(
      { '/models/tiny-tools.gguf': model },
      { bytesPerSecond: Math.ceil(model.byteLength / 3) },
    );
  });
  test.afterAll(async () => {
    await files.close();
  });

  test('download with progress, see it stored, chat with a tool call, test it, delete it', async ({
    workbench,
    page,
  }) => {
    await workbench.open();
    const dialog = await openModels(page, 'In this browser');
    // Headless Chromium's software WebGPU adapter has no shader-f16: the CPU is used, and said.
    await expect(dialog.getByTestId('gpu-status')).toContainText(
      'lacks shader-f16; running on the CPU',
    );
    await expect(dialog.getByText('No models stored yet.')).toBeVisible();

    await dialog.getByLabel('GGUF model URL').fill(`${files.url}/models/tiny-tools.gguf`);
    await dialog.getByRole('button', { name: 'Load from URL' }).click();
    const bar = dialog.getByLabel('Downloading tiny-tools.gguf');
    await expect(bar).toBeVisible();
    await expect(bar.getByTestId('download-figures')).toContainText(
      / of \d+ KB \(\d+%\) · [\d.]+ KB\/s · .* left/,
    );

    const loaded = dialog.getByRole('region', { name: 'Loaded model' });
    await expect(loaded).toContainText('tiny-tools', { timeout: 60_000 });
    await expect(loaded).toContainText('CPU');
    const stored = dialog.getByRole('list', { name: 'Stored models' });
    await expect(stored).toContainText(/tiny-tools\.gguf\s*\d+ KB/);

    // A prompt with the sample tool offered: the model answers with a parsed tool call.
    await loaded.getByLabel('Prompt', { exact: true }).fill('What time is it in Tokyo?');
    await loaded.getByRole('button', { name: 'Send' }).click();
    await expect(loaded.getByTestId('try-output')).toContainText(
      /Tool call: get_local_time\(\{\s*"city"/,
      {
        timeout: 60_000,
      },
    );
    await expect(loaded.getByTestId('try-figures')).toContainText(
      /\d+ tokens in, \d+ out, in \d+ ms .* · \$0$/,
    );

    await loaded.getByRole('button', { name: 'Test connection' }).click();
    await expect(loaded.getByRole('status').filter({ hasText: 'Connection works.' })).toBeVisible({
      timeout: 60_000,
    });

    // After a reload the stored model is offered again and loads without a second download.
    await page.reload();
    const again = await openModels(page, 'Roles');
    await again.getByRole('button', { name: 'Load tiny-tools.gguf again' }).click();
    await expect(loaded).toContainText('tiny-tools', { timeout: 60_000 });
    await expect(again.getByRole('tab', { name: 'In this browser' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(files.count('/models/tiny-tools.gguf')).toBe(1);

    await stored.getByRole('button', { name: 'Delete tiny-tools.gguf' }).click();
    await expect(dialog.getByText('No models stored yet.')).toBeVisible();
    await expect(loaded).toBeHidden();
    expect(files.count('/models/tiny-tools.gguf')).toBe(1);

    // A model file from disk loads without being stored; a file that is not GGUF is refused.
    const picker = dialog.getByLabel('Load a .gguf file…');
    await picker.setInputFiles({
      name: 'notes.gguf',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('hello'),
    });
    await expect(dialog.getByRole('alert')).toContainText('notes.gguf is not a GGUF model file');
    await picker.setInputFiles({
      name: 'mine.gguf',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(model),
    });
    await expect(loaded).toContainText('mine');
    await expect(dialog.getByText('No models stored yet.')).toBeVisible();
  });
});

test.describe('a remote endpoint', () => {
  let server: TestServer;
  let refusing: TestServer;
  test.beforeAll(async () => {
    server = await startOpenAIServer({ requireKey: KEY, models: ['tiny-chat'] });
    refusing = await startOpenAIServer({ cors: false });
  });
  test.afterAll(async () => {
    await server.close();
    await refusing.close();
  });

  test('configure an endpoint and pass the connection test; the key stays out of storage', async ({
    workbench,
    page,
  }) => {
    const logs: string[] = [];
    page.on('console', (message) => logs.push(message.text()));
    await workbench.openExample('airline');
    const card = await addEndpoint(page, server.url, 'tiny-chat', 'sk-wrong');
    await card.getByRole('button', { name: 'Test connection' }).click();
    await expect(card.getByRole('alert')).toContainText('refused the API key (401)');
    await expect(card.getByRole('alert')).not.toContainText('sk-wrong');

    await card.getByLabel('API key').fill(KEY);
    await card.getByRole('button', { name: 'Test connection' }).click();
    const passed = card.getByRole('status').filter({ hasText: 'Connection works.' });
    await expect(passed).toBeVisible();
    // A busy machine may take a second or more: "1.1 s" is as right as "840 ms".
    await expect(passed).toContainText(
      /Tool call in [\d.,]+ m?s, round trip in [\d.,]+ m?s \(tiny-chat\)/,
    );
    await expect(passed).toContainText('get_local_time({"city":"Paris"})');
    const sent = server.requests.filter((r) => r.method === 'POST');
    expect(sent.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);

    // Once it works, a prompt can be tried on it; the answer streams in.
    await card.getByLabel('Offer the tool get_local_time(city)').uncheck();
    await card.getByRole('button', { name: 'Send' }).click();
    await expect(card.getByTestId('try-output')).not.toBeEmpty();
    await expect(card.getByTestId('try-figures')).toContainText(
      'stopped: stop · no price for tiny-chat',
    );

    // Give the agent role this endpoint; nothing about it may leak into what the page keeps.
    await page.getByRole('dialog', { name: 'Models' }).getByRole('tab', { name: 'Roles' }).click();
    await page.getByLabel('Engine for Agent under test').selectOption({ label: 'Custom' });
    await page.keyboard.press('Escape');
    // Wait for the autosave, then read every byte the page keeps: local storage and IndexedDB.
    const dump = () =>
      page.evaluate(async () => {
        const read = (name: string) =>
          new Promise<string>((resolve, reject) => {
            const open = indexedDB.open(name);
            open.onerror = () => {
              reject(new Error(`cannot open ${name}`));
            };
            open.onsuccess = () => {
              const db = open.result;
              const names = [...db.objectStoreNames];
              if (names.length === 0) {
                resolve('');
                return;
              }
              const tx = db.transaction(names, 'readonly');
              const all = names.map(
                (store) =>
                  new Promise<unknown>((done) => {
                    const request = tx.objectStore(store).getAll();
                    request.onsuccess = () => {
                      done(request.result);
                    };
                  }),
              );
              void Promise.all(all).then((rows) => {
                resolve(JSON.stringify(rows));
              });
            };
          });
        const dbs = await indexedDB.databases();
        const stored = await Promise.all(dbs.map((d) => read(d.name ?? '')));
        const local = Object.fromEntries(
          Array.from({ length: localStorage.length }, (_, i) => {
            const key = localStorage.key(i) ?? '';
            return [key, localStorage.getItem(key)];
          }),
        );
        return { local: JSON.stringify(local), indexed: stored.join('\n') };
      });
    await expect.poll(async () => (await dump()).indexed).toContain('policies.yaml');
    const kept = await dump();
    expect(kept.indexed).not.toContain(KEY);
    expect(kept.local).toContain(server.url);
    expect(kept.local).not.toContain(KEY);
    expect(logs.join('\n')).not.toContain(KEY);
  });

  test('a server that refuses cross-origin requests gets the CORS message with the fix', async ({
    workbench,
    page,
  }) => {
    await workbench.open();
    const card = await addEndpoint(page, refusing.url, 'any-model');
    await card.getByRole('button', { name: 'Test connection' }).click();
    const alert = card.getByRole('alert');
    await expect(alert).toContainText('cross-origin', { timeout: 60_000 });
    await expect(alert).toContainText('OLLAMA_ORIGINS');
    await expect(alert).toContainText('Enable CORS');
  });
});
