import type { Project } from '../../core/index.ts';
import { projectFromFiles } from '../../core/index.ts';

/** A policy id `length` characters long, distinct for each `i`, shaped like a real slug. */
export function longId(prefix: string, i: number, length = 60): string {
  const tail = `-${String(i).padStart(6, '0')}`;
  const body = `${prefix}-refund-only-to-the-original-payment-method-when-asked-politely`;
  return `${body.slice(0, length - tail.length)}${tail}`;
}

function policiesYaml(count: number): string {
  const lines = ['policies:'];
  for (let i = 0; i < count; i++) {
    lines.push(
      `  - id: ${longId('known', i)}`,
      `    text: Refund an order only to the payment method it was paid with, case ${i}.`,
      `    category: refunds`,
      `    challenge: ${(i % 5) + 1}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The reference bomb: `count` policies with 60-character ids and one scenario naming `count`
 * unknown ones, each one letter-run away from every known id, so a "did you mean" search that
 * compares every pair does `count²` long edit distances.
 */
export function referenceBomb(count = 500): Project {
  const scenario = [
    'scenarios:',
    '  - id: names-every-unknown-policy',
    '    goal: Ask about a refund.',
    '    policies:',
    ...Array.from({ length: count }, (_, i) => `      - ${longId('unknown', i)}`),
  ];
  return projectFromFiles('reference-bomb', {
    'policies.yaml': policiesYaml(count),
    'scenarios.yaml': `${scenario.join('\n')}\n`,
  }).project;
}

/** `count` well-formed policies with 60-character ids (60,000 make about 11.5 MB). */
export function manyPolicies(count = 60_000): Project {
  return projectFromFiles('many-policies', { 'policies.yaml': policiesYaml(count) }).project;
}

/** A policies.yaml of about `megabytes` MB: past the file size limit. */
export function oversizeFile(megabytes = 40): Project {
  const perPolicy = policiesYaml(1).length - 'policies:\n'.length;
  return manyPolicies(Math.ceil((megabytes * 1_000_000) / perPolicy));
}

/** Five files each under the file limit that together pass the project limit. */
export function oversizeProject(): Project {
  const filler = (key: string) => `# ${'x'.repeat(100)}\n`.repeat(100_000) + `${key}: []\n`;
  return projectFromFiles('oversize-project', {
    'policies.yaml': filler('policies'),
    'tools.yaml': filler('tools'),
    'database.yaml': filler('tables'),
    'rules.yaml': filler('guards'),
    'scenarios.yaml': filler('scenarios'),
  }).project;
}

/** A policies.yaml of `count` items that are not policies: one problem each. */
export function manyProblems(count = 200_000): Project {
  return projectFromFiles('Many problems', {
    'policies.yaml': `policies:\n${'  - 1\n'.repeat(count)}`,
  }).project;
}

/** A name, the input it makes, and what a clear answer to it says. */
export interface HostileCheckInput {
  readonly name: string;
  readonly make: () => Project;
  /** A diagnostic's message must match this (the clear message the input deserves). */
  readonly says: RegExp;
}

/** The hostile inputs for `check`, each generated in code (some are megabytes). */
export const HOSTILE_CHECK_INPUTS: readonly HostileCheckInput[] = [
  {
    name: 'reference bomb: 500 unknown 60-character policy ids',
    make: () => referenceBomb(500),
    says: /^Unknown policy "unknown-.{52}"\./,
  },
  {
    name: '60,000 templated policies (11.4 MB)',
    make: () => manyPolicies(60_000),
    says: /^This reads almost like "known-/,
  },
  {
    // More problems than a call takes arguments: collecting them once overflowed the stack.
    name: '200,000 problems in one file',
    make: () => manyProblems(200_000),
    says: /"policies" must be a mapping/,
  },
  {
    name: 'a 40 MB policies.yaml',
    make: () => oversizeFile(40),
    says: /^policies\.yaml is 4\d\.\d MB; PolicyLab checks files up to 12\.0 MB\. Nothing in the project was checked; the text is kept as written\.$/,
  },
  {
    name: 'five files of 10 MB each',
    make: oversizeProject,
    says: /^The project is 5\d\.\d MB in all; PolicyLab checks projects up to 24\.0 MB\./,
  },
];
