import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Project, ProjectFileName } from '../project.ts';
import { PROJECT_FILES } from '../project.ts';
import {
  arbitraryProject as project,
  trickyText as tricky,
} from '../testing/projectArbitraries.ts';
import type { ShareView } from './link.ts';
import { decodeShareLink, encodeShareLink, shareUrl } from './link.ts';

const view: fc.Arbitrary<ShareView> = fc.record(
  {
    maximize: fc.constant('graph' as const),
    policy: tricky,
    search: tricky,
    tool: tricky,
    sample: fc.array(tricky, { maxLength: 6 }),
  },
  { requiredKeys: [] },
);

describe('share links, for any project and view', () => {
  it('give back exactly the project and the view', () => {
    fc.assert(
      fc.property(project, fc.option(view, { nil: undefined }), (p, v) => {
        const link = v === undefined ? encodeShareLink(p) : encodeShareLink(p, v);
        expect(decodeShareLink(link)).toEqual({ ok: true, project: p, view: v ?? {}, notes: [] });
        expect(decodeShareLink(shareUrl('https://policylab.app/', p, v))).toEqual(
          decodeShareLink(link),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('give back a big project whole', () => {
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    const words = ['refund', 'vérifier', '予約', 'cancel', '😀', 'policy', '\n', '  - id:', 'ok'];
    const noise = () =>
      Array.from({ length: 100_000 }, () => words[next() % words.length]).join(' ');
    const big: Project = {
      name: 'Big',
      files: Object.fromEntries(PROJECT_FILES.map((f) => [f.name, noise()])) as Record<
        ProjectFileName,
        string
      >,
    };
    const link = encodeShareLink(big);
    expect(link.length).toBeGreaterThan(200_000);
    const read = decodeShareLink(link);
    expect(read.ok && read.project.files).toEqual(big.files);
  });
});

/** A whole link of a small project, whose view part the properties below then garble. */
const MINI_LINK = encodeShareLink({
  name: 'Mini',
  files: Object.fromEntries(PROJECT_FILES.map((f) => [f.name, `${f.summary}\n`])) as Record<
    ProjectFileName,
    string
  >,
});

describe('reading any text as a link', () => {
  /** A refusal from the catch-all means some case was not foreseen and worded. */
  const worded = (input: string) => {
    const read = decodeShareLink(input);
    if (!read.ok) {
      expect(read.error).not.toMatch(/^This link could not be read/);
      expect(read.error.length).toBeGreaterThan(20);
    }
  };

  it('never throws and always says why, for arbitrary text', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), worded), { numRuns: 500 });
    fc.assert(
      fc.property(
        fc.constantFrom('p=1.', '#p=1.', 'x#p=2.', 'p=1.AAAA&v=', `${MINI_LINK}&v=`),
        fc.string({ unit: fc.constantFrom(...'AZaz09-_.&=,:%sFfE'.split('')) }),
        (prefix, rest) => {
          worded(prefix + rest);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never throws on a real link cut short or with characters changed', () => {
    const good = encodeShareLink(
      {
        name: 'Mini',
        files: Object.fromEntries(PROJECT_FILES.map((f) => [f.name, `${f.summary}\n`])) as Record<
          ProjectFileName,
          string
        >,
      },
      { policy: 'a', sample: ['b'] },
    );
    fc.assert(
      fc.property(
        fc.nat({ max: good.length }),
        fc.array(
          fc.tuple(
            fc.nat({ max: good.length - 1 }),
            fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
          ),
          { maxLength: 4 },
        ),
        (cut, changes) => {
          const chars = good.slice(0, cut).split('');
          for (const [at, c] of changes) if (at < chars.length) chars[at] = c;
          worded(chars.join(''));
        },
      ),
      { numRuns: 500 },
    );
  });
});
