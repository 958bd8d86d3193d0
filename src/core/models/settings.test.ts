import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_SETTINGS, checkBaseUrl, readModelSettings } from './settings.ts';

const endpoint = {
  id: 'e1',
  kind: 'openai',
  label: 'Ollama',
  baseUrl: 'http://localhost:11434/v1',
  defaultModel: 'qwen2.5:3b',
  hostsAgent: true,
};

describe('readModelSettings', () => {
  it('reads back what it was given', () => {
    const saved = {
      endpoints: [endpoint],
      roles: {
        agent: { engine: 'e1', model: 'qwen2.5:3b' },
        user: { engine: 'local', model: 'qwen' },
      },
      prices: { 'qwen2.5:3b': { inputPerMillion: 0, outputPerMillion: 0 } },
      rememberKeys: true,
    };
    expect(readModelSettings(JSON.parse(JSON.stringify(saved)))).toEqual({
      settings: saved,
      dropped: [],
    });
  });

  it('keeps the valid parts of damaged settings and names what it dropped', () => {
    const { settings, dropped } = readModelSettings({
      endpoints: [
        endpoint,
        { ...endpoint },
        { ...endpoint, id: 'e2', kind: 'gopher' },
        { ...endpoint, id: 'e3', baseUrl: 'javascript:alert(1)' },
      ],
      roles: { agent: { engine: 'gone', model: 'x' }, judge: { engine: 'e1', model: 'm' } },
      prices: {
        good: { inputPerMillion: 1, outputPerMillion: 2 },
        bad: { inputPerMillion: -1, outputPerMillion: 2 },
      },
      rememberKeys: 'yes',
    });
    expect(settings.endpoints.map((e) => e.id)).toEqual(['e1']);
    expect(settings.roles).toEqual({ judge: { engine: 'e1', model: 'm' } });
    expect(Object.keys(settings.prices)).toEqual(['good']);
    expect(settings.rememberKeys).toBe(false);
    expect(dropped).toEqual([
      'an endpoint',
      'an endpoint',
      'an endpoint',
      'the agent model',
      'the price of bad',
    ]);
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const { settings } = readModelSettings(value);
        expect(Array.isArray(settings.endpoints)).toBe(true);
      }),
    );
    expect(readModelSettings(undefined)).toEqual({ settings: DEFAULT_MODEL_SETTINGS, dropped: [] });
    expect(readModelSettings('junk').dropped).toEqual(['the saved model settings']);
  });
});

describe('checkBaseUrl', () => {
  it('accepts http(s) URLs and explains the rest', () => {
    expect(checkBaseUrl('https://api.openai.com/v1')).toBeUndefined();
    expect(checkBaseUrl('http://127.0.0.1:8080')).toBeUndefined();
    expect(checkBaseUrl('ftp://host/v1')).toMatch(/http:\/\/ or https:\/\//);
    expect(checkBaseUrl('api.openai.com')).toMatch(/full URL/);
    expect(checkBaseUrl('https://sk-123@api.example.com/v1')).toMatch(/not in the URL/);
  });
});
