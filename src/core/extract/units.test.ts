import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markdownBlocks } from './blocks.ts';
import { cleanText } from './sentences.ts';
import { policyUnits } from './units.ts';

const texts = (prompt: string) => policyUnits(prompt).map((u) => u.text);

describe('markdownBlocks', () => {
  it('finds paragraphs and items with their nesting, the paragraph that opens a list, and skips code and tables', () => {
    const prompt = [
      '# Title', // 1
      'Intro line one', // 2
      'and two:', // 3
      '- top', // 4
      '  - nested', // 5
      '    going on', // 6
      '- second', // 7
      '```', // 8
      '- code', // 9
      '```', // 10
      '| a | b |', // 11
      '## Other', // 12
      '- fresh', // 13
    ].join('\n');
    const blocks = markdownBlocks(prompt).map((b) => ({
      kind: b.kind,
      text: prompt.slice(b.span.start, b.span.end),
      lines: [b.line, b.endLine],
      heading: b.heading,
      parent: b.parent,
      intro: b.intro,
    }));
    expect(blocks).toEqual([
      { kind: 'paragraph', text: 'Intro line one\nand two:', lines: [2, 3], heading: 'Title', parent: undefined, intro: undefined },
      { kind: 'item', text: 'top', lines: [4, 4], heading: 'Title', parent: undefined, intro: 0 },
      { kind: 'item', text: 'nested\n    going on', lines: [5, 6], heading: 'Title', parent: 1, intro: undefined },
      { kind: 'item', text: 'second', lines: [7, 7], heading: 'Title', parent: undefined, intro: 0 },
      { kind: 'item', text: 'fresh', lines: [13, 13], heading: 'Other', parent: undefined, intro: undefined },
    ]); // prettier-ignore
  });
});

describe('policyUnits', () => {
  it('takes the obligation sentences of a paragraph and leaves the rest', () => {
    expect(
      texts(
        'The desk opens at nine. You must verify the guest first. Rooms have two beds. Never share a room key.',
      ),
    ).toEqual(['You must verify the guest first.', 'Never share a room key.']);
  });

  it("keeps a nested item's parents and the sentence that opens a list", () => {
    expect(
      texts(
        [
          'Free bags depend on the tier:',
          '',
          '- Gold members:',
          '  - 3 free bags in business',
          '- A refund is possible only if:',
          '  - the flight was cancelled',
        ].join('\n'),
      ),
    ).toEqual([
      'Free bags depend on the tier: Gold members: 3 free bags in business',
      'Free bags depend on the tier: A refund is possible only if: the flight was cancelled',
    ]);
  });

  it('drops descriptions of data: records, field lists, value lists and examples', () => {
    const prompt = [
      'Each order has the following attributes:',
      '',
      '- unique order id',
      '- items ordered and their prices',
      '',
      'There are three kinds of cards.',
      '',
      '- Card types are debit, credit and prepaid.',
      '',
      '- `user_id`: the id of the user who owns the order',
      '- user_name: the full name of the user',
      '',
      'The status of an order can be:',
      '',
      '- pending, when nothing has shipped',
      '- delivered, once it has arrived',
      '',
      'For example, you must not mix item ids and product ids.',
    ].join('\n');
    expect(texts(prompt)).toEqual([]);
  });

  it('makes one rule of a lead-in over a list of short items', () => {
    expect(
      texts('Collect for every passenger:\n\n- first name\n- last name\n- date of birth\n'),
    ).toEqual(['Collect for every passenger: first name, last name, date of birth']);
  });

  it('keeps every sentence of a list item but examples, and nothing of a code block', () => {
    expect(
      texts(
        '- Bags cannot be removed. The fee is $50 a bag. For example, 2 bags are $100.\n```\nYou must run this.\n```',
      ),
    ).toEqual(['Bags cannot be removed.', 'The fee is $50 a bag.']);
  });

  const OBLIGATIONS = [
    'You must verify the guest before any change.',
    'Never refund a gift card to a credit card.',
    'The agent should confirm every booking with the user.',
    'Only the account holder can cancel a trip.',
    'Do not share another guest’s address.',
    'Always ask for the reason of the cancellation.',
    'Refunds cannot be split between two cards.',
    'A booking may be changed before the arrival day.',
  ];
  const OTHERS = [
    'Our hotels are in twelve cities.',
    'Each guest has a profile containing an id and an email.',
    'The lobby is on the ground floor.',
    'There are three kinds of rooms.',
  ];

  it('never loses an obligation sentence, wherever it stands, and every span lies in the prompt', () => {
    const sentence = fc.oneof(fc.constantFrom(...OBLIGATIONS), fc.constantFrom(...OTHERS));
    const block = fc.oneof(
      fc.array(sentence, { minLength: 1, maxLength: 4 }).map((s) => s.join(' ')),
      fc.array(sentence, { minLength: 1, maxLength: 3 }).map((s) => s.map((x) => `- ${x}`).join('\n')),
      fc.array(sentence, { minLength: 1, maxLength: 3 }).map((s) => `- Members:\n${s.map((x) => `  - ${x}`).join('\n')}`),
      fc.constantFrom('## Refunds', '# Policy', '```\ncode\n```', '| a | b |'),
    ); // prettier-ignore
    fc.assert(
      fc.property(
        fc.array(block, { maxLength: 8 }),
        fc.constantFrom('\n', '\n\n', '\r\n\r\n'),
        (blocks, gap) => {
          const prompt = blocks.join(gap);
          const units = policyUnits(prompt);
          const found = units.map((u) => u.text.toLowerCase()).join('\n');
          // Outside code, every obligation sentence appears in some unit (with its full stop).
          const prose = prompt.replace(/```\ncode\n```/g, '');
          for (const rule of OBLIGATIONS)
            if (prose.includes(rule)) expect(found).toContain(rule.toLowerCase());
          const lines = prompt.split('\n').length;
          for (const unit of units) {
            expect(unit.line).toBeGreaterThanOrEqual(1);
            expect(unit.endLine).toBeGreaterThanOrEqual(unit.line);
            expect(unit.endLine).toBeLessThanOrEqual(lines);
            for (const span of [...unit.spans, ...unit.leadIn]) {
              expect(span.start).toBeGreaterThanOrEqual(0);
              expect(span.end).toBeLessThanOrEqual(prompt.length);
              const words = cleanText(prompt.slice(span.start, span.end)).toLowerCase();
              expect(unit.text.toLowerCase()).toContain(words.replace(/[\s;,:]+$/, ''));
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
