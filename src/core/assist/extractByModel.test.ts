import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { addPoliciesToYaml } from '../extract.ts';
import type { ExtractSection } from './extractByModel.ts';
import {
  EXTRACT_POLICIES_PROMPT,
  POLICY_CATEGORIES,
  extractByModel,
  planExtract,
  sameRule,
  sectionsOf,
} from './extractByModel.ts';

// A desk agent's prompt written for these tests: three flows that each restate the rule on
// confirming before a change, as long prompts do.
const PROMPT = [
  'You are the booking desk of Harbour Ferries.', // 1
  '', // 2
  '## Authentication', // 3
  'Ask for the booking reference and the surname before you look anything up.', // 4
  'Never read out a card number.', // 5
  '', // 6
  '## Refunds', // 7
  'Refund a cancelled sailing to the card it was paid with, within', // 8
  '14 days of the sailing.', // 9
  'Before any refund, confirm the details with the passenger and wait for an explicit yes.', // 10
  '', // 11
  '## Changes', // 12
  'A change of date costs 10 pounds unless the passenger holds a flexi ticket.', // 13
  'Before any change, confirm the details with the passenger and wait for an explicit yes.', // 14
].join('\n');

const TOOLS = ['find_booking', 'refund_booking', 'change_booking'];

/** What a model answers for each section, by its title. */
const ANSWERS: Record<string, unknown> = {
  Introduction: { policies: [] },
  Authentication: {
    policies: [
      {
        text: 'Ask for the booking reference and the surname before looking anything up.',
        category: 'authentication',
        challenge: 2,
        tools: ['find_booking'],
        quote: 'Ask for the booking reference and the surname before you look anything up.',
      },
      {
        text: 'Never read out a card number.',
        category: 'secrets', // not in the list
        challenge: 9, // out of range
        tools: ['read_card'], // no such tool
        quote: 'Never read out a card number.',
      },
    ],
  },
  Refunds: {
    policies: [
      {
        text: 'Refund a cancelled sailing to the card it was paid with, within 14 days of the sailing.',
        category: 'refunds',
        challenge: 3,
        tools: ['refund_booking'],
        quote:
          'Refund a cancelled sailing to the card it was paid with, within 14 days of the sailing.',
      },
      {
        text: 'Confirm the details with the passenger and wait for an explicit yes before any change or refund.',
        category: 'confirmation',
        challenge: 3,
        tools: [],
        quote: 'confirm the details with the passenger and wait for an explicit yes',
      },
    ],
  },
  Changes: {
    policies: [
      {
        text: 'A change of date costs 10 pounds unless the passenger holds a flexi ticket.',
        category: 'changes',
        challenge: 4,
        tools: ['change_booking'],
        quote: 'A change of date costs 10 pounds unless the passenger holds a flexi ticket.',
      },
      {
        text: 'Before any change or refund, confirm the details with the passenger and wait for an explicit yes.',
        category: 'confirmation',
        challenge: 3,
        tools: [],
        quote:
          'Before any change, confirm the details with the passenger and wait for an explicit yes.',
      },
    ],
  },
};

function scripted(answers: Record<string, unknown> = ANSWERS) {
  const sent: string[] = [];
  const ask = (text: string, section: ExtractSection) => {
    sent.push(text);
    const answer = answers[section.title];
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  };
  return { ask, sent };
}

const known = { tools: TOOLS, categories: [...POLICY_CATEGORIES] };

describe('extraction by a model', () => {
  it('sends one call per section, each with the section and the lists it may choose from', async () => {
    const plan = planExtract(PROMPT, TOOLS, known.categories);
    expect(plan.sections.map((s) => [s.title, s.line])).toEqual([
      ['Introduction', 1],
      ['Authentication', 3],
      ['Refunds', 7],
      ['Changes', 12],
    ]);
    expect(plan.calls).toBe(4);
    expect(plan.inputTokens).toBeGreaterThan(0);
    const { ask, sent } = scripted();
    await extractByModel(PROMPT, plan, known, ask);
    expect(sent).toHaveLength(4);
    expect(sent[2]).toContain('Refund a cancelled sailing');
    expect(sent[2]).toContain('find_booking, refund_booking, change_booking');
    expect(sent[2]).toContain('authentication, privacy');
    expect(sent[2]).not.toContain('{{');
    expect(EXTRACT_POLICIES_PROMPT.version).toBe(1);
  });

  it('merges a rule every flow restates into one policy that names its flows', async () => {
    const { ask } = scripted();
    const result = await extractByModel(
      PROMPT,
      planExtract(PROMPT, TOOLS, known.categories),
      known,
      ask,
    );
    const confirm = result.candidates.filter((c) => c.category === 'confirmation');
    expect(confirm).toHaveLength(1);
    expect(confirm[0]?.flows).toEqual(['Refunds', 'Changes']);
    expect(result.flows).toEqual([
      { name: 'Introduction', policies: [] },
      { name: 'Authentication', policies: [expect.any(String), expect.any(String)] },
      { name: 'Refunds', policies: [expect.any(String), confirm[0]?.id] },
      { name: 'Changes', policies: [expect.any(String), confirm[0]?.id] },
    ]);
    expect(result.candidates).toHaveLength(5);
  });

  it('places each policy on the lines its quote spans, across a line break', async () => {
    const { ask } = scripted();
    const result = await extractByModel(
      PROMPT,
      planExtract(PROMPT, TOOLS, known.categories),
      known,
      ask,
    );
    const refund = result.candidates.find((c) => c.category === 'refunds');
    expect(refund?.source).toEqual({ line: 8, endLine: 9 });
    expect(refund?.placed).toBe('exact');
    const confirm = result.candidates.find((c) => c.category === 'confirmation');
    // The first flow's quote is placed: line 10, found whatever its case.
    expect(confirm?.source).toEqual({ line: 10, endLine: 10 });
  });

  it('files an unknown category under general, drops tools the project lacks and clamps the challenge, saying so', async () => {
    const { ask } = scripted();
    const result = await extractByModel(
      PROMPT,
      planExtract(PROMPT, TOOLS, known.categories),
      known,
      ask,
    );
    const card = result.candidates.find((c) => c.text.startsWith('Never read out'));
    expect(card).toMatchObject({
      category: 'general',
      challenge: 5,
      tools: [],
      source: { line: 5 },
    });
    expect(result.problems).toEqual([
      'Section “Authentication” (line 3), policy 2: category “secrets” is not one of the list; filed under general.',
      'Section “Authentication” (line 3), policy 2: “read_card” is not a tool of the project; left out.',
    ]);
  });

  it('keeps going past a failed call and a malformed answer, and stops between calls when asked', async () => {
    const { ask } = scripted({
      ...ANSWERS,
      Authentication: new Error('HTTP 500'),
      Refunds: { rules: [] },
    });
    const plan = planExtract(PROMPT, TOOLS, known.categories);
    const result = await extractByModel(PROMPT, plan, known, ask);
    expect(result.problems).toEqual([
      'Section “Authentication” (line 3): the model call failed (HTTP 500).',
      'Section “Refunds” (line 7): the answer has no list of policies.',
    ]);
    expect(result.candidates.map((c) => c.category)).toEqual(['changes', 'confirmation']);

    let calls = 0;
    const stopping = await extractByModel(
      PROMPT,
      plan,
      known,
      (text, section) => {
        calls++;
        return scripted().ask(text, section);
      },
      { stopped: () => calls >= 2 },
    );
    expect(stopping).toMatchObject({ stopped: true, answered: 2 });
  });

  it('becomes a YAML edit of policies.yaml that keeps its comments and what it holds', async () => {
    const { ask } = scripted();
    // An id policies.yaml already uses is not given again.
    const result = await extractByModel(
      PROMPT,
      planExtract(PROMPT, TOOLS, known.categories),
      { ...known, ids: ['refund-cancelled-sailing-card-paid-within'] },
      ask,
    );
    const before = [
      '# Harbour Ferries policies (kept by hand)',
      'policies:',
      '  - id: no-card-numbers # from the security review',
      '    text: Never read out a card number.',
      '    category: privacy',
      '',
    ].join('\n');
    const after = addPoliciesToYaml(before, result.candidates);
    expect(after.startsWith(before.trimEnd())).toBe(true);
    expect(after).toContain('# from the security review');
    const policies = (parse(after) as { policies: { id: string; source?: unknown }[] }).policies;
    // The card rule is already held (same text); the other four are added with their lines.
    expect(policies.map((p) => p.id)).toHaveLength(5);
    expect(policies.find((p) => p.id.startsWith('refund'))?.source).toEqual({
      line: 8,
      endLine: 9,
    });
  });

  it('tells apart rules that share words but not their point', () => {
    expect(sameRule('Confirm before any change.', 'Before any change, confirm.')).toBe(true);
    expect(sameRule('Refund within 14 days.', 'Refund to the original card.')).toBe(false);
  });

  it('cuts any prompt into sections that keep every line of text once (property)', () => {
    const line = fc.oneof(
      fc.constantFrom('', '## Flow', '# Title', '### Sub'),
      fc.stringMatching(/^[a-z][a-z ]{0,30}$/),
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 40 }),
        fc.integer({ min: 20, max: 200 }),
        (lines, max) => {
          const prompt = lines.join('\n');
          const sections = sectionsOf(prompt, max);
          const covered = sections.flatMap((s) =>
            s.text.split('\n').map((text, i) => ({ text, line: s.line + i })),
          );
          const seen = new Set(covered.map((c) => c.line));
          expect(seen.size).toBe(covered.length);
          for (const c of covered) expect(lines[c.line - 1]).toBe(c.text);
          lines.forEach((text, i) => {
            if (/^[a-z]/.test(text)) expect(seen.has(i + 1)).toBe(true);
          });
        },
      ),
    );
  });
});
