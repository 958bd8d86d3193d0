import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { parseProject } from '../core/format/parseProject.ts';
import { gatherDomain } from '../core/import/gather.ts';
import { importDomain } from '../core/import/importDomain.ts';

/*
 * tau2-bench's domains beside the repository (../shared/tau2, never copied in), imported as a
 * user imports them, for the tests that measure the import against tau2-bench's own code.
 */

const here = path.dirname(new URL(import.meta.url).pathname);
export const SHARED_TAU2 = path.resolve(here, '..', '..', '..', 'shared', 'tau2');

/** Whether ../shared/tau2/<domain> is there. */
export const present = (domain: string): boolean => existsSync(path.join(SHARED_TAU2, domain));

/** What a test's name says when the domain is absent and the test is skipped. */
export const skipped = (domain: string): string =>
  present(domain) ? '' : ` (skipped: ../shared/tau2/${domain} is absent)`;

function filesUnder(root: string, dir = ''): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = dir === '' ? entry.name : `${dir}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(root, rel) : [rel];
  });
}

/** The domain imported as `policylab import tau2` imports it. */
export function importedTau2(domain: string) {
  const root = path.join(SHARED_TAU2, domain);
  const found = gatherDomain('tau2', {
    label: domain,
    name: domain,
    paths: filesUnder(root),
    read: (p) => readFileSync(path.join(root, p), 'utf8'),
  });
  if ('error' in found) throw new Error(found.error);
  const result = importDomain(found, domain);
  return { ...result, model: parseProject(result.project).model };
}

/** JSON text both sides agree on: sorted keys, no nulls (as the oracle writes it). */
export function canonical(value: unknown): string {
  const norm = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(norm)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .filter((k) => (v as Record<string, unknown>)[k] !== null)
              .map((k) => [k, norm((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(norm(value));
}

/** The SHA-256 of a value's canonical JSON, as the oracles write it. */
export const digest = (value: unknown): string =>
  createHash('sha256').update(canonical(value)).digest('hex');

/**
 * The domain's files whose SHA-256 is no longer the one an oracle was made from: a changed
 * domain needs its oracle made again.
 */
export function changedSources(
  domain: string,
  sources: Readonly<Record<string, string>>,
): string[] {
  const root = path.join(SHARED_TAU2, domain);
  return Object.entries(sources).flatMap(([name, hash]) => {
    const file = ['data', 'src'].map((d) => path.join(root, d, name)).find((p) => existsSync(p));
    const actual = file && createHash('sha256').update(readFileSync(file)).digest('hex');
    return actual === hash ? [] : [name];
  });
}
