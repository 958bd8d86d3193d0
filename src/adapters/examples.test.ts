import { describe, expect, it } from 'vitest';
import { createExampleLibrary } from './examples.ts';

const served =
  (body: string, status = 200) =>
  () =>
    Promise.resolve(new Response(body, { status }));

describe('createExampleLibrary', () => {
  it('loads every file of an example from the app itself', async () => {
    const asked: string[] = [];
    const library = createExampleLibrary('/base/', (url) => {
      asked.push(url);
      return Promise.resolve(new Response(`text of ${url}`));
    });
    const files = await library.load('airline');
    expect(asked).toContain('/base/examples/airline/rules.yaml');
    expect(files['agent.md']).toBe('text of /base/examples/airline/agent.md');
    await expect(library.load('nope')).rejects.toThrow('There is no example called "nope".');
  });

  it('says which file is missing and when the network fails', async () => {
    await expect(createExampleLibrary('/', served('', 404)).load('store')).rejects.toThrow(
      /missing \(HTTP 404\)/,
    );
    await expect(
      createExampleLibrary('/', () => Promise.reject(new TypeError('offline'))).load('store'),
    ).rejects.toThrow(/could not be downloaded/);
  });

  it('opens bundles served by the app, and refuses anything else', async () => {
    const library = createExampleLibrary('/', served('{"format": "policylab/1"}'));
    await expect(library.loadBundle('/shared/x.policylab.json')).resolves.toContain('policylab/1');
    for (const path of [
      'https://evil.example/x.json',
      '//evil.example/x.json',
      '/../secret.json',
      '/x.txt',
      'x.json',
    ]) {
      await expect(library.loadBundle(path), path).rejects.toThrow(/not a bundle this app serves/);
    }
  });

  it('says a mistyped path has no bundle, when the server answers with its own page', async () => {
    const page = () =>
      Promise.resolve(
        new Response('<!doctype html><html></html>', {
          headers: { 'content-type': 'text/html; charset=utf-8' },
        }),
      );
    const library = createExampleLibrary('/', page);
    await expect(library.loadBundle('/shraed/x.policylab.json')).rejects.toThrow(
      'There is no bundle at this address (the server answered with a web page).',
    );
  });
});
