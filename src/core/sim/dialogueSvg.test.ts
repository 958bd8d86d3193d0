import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REFUND_PLAN, refundJudge, simulateRefunds } from '../../test/refundDesk.ts';
import { dialogueToSvg, wrapText } from './dialogueSvg.ts';
import { replayOf } from './replay.ts';

describe('a dialogue as a picture', () => {
  it('draws the messages, the refused call and the ending, up to a step when asked', async () => {
    const { events } = await simulateRefunds({
      ...REFUND_PLAN,
      judge: { engine: refundJudge, model: 'judge-model' },
    });
    const replay = replayOf(events, 'late#1');
    const svg = dialogueToSvg(replay, { theme: 'light', title: 'late#1 · fail' });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('late#1 · fail');
    expect(svg).toContain('Customer · the customer’s 1st message');
    expect(svg).toContain('Refused by refund-late (refund-window)');
    expect(svg).toContain('Ended: ');
    const refused = replay.steps.findIndex((s) => s.call?.guard?.allowed === false);
    const early = dialogueToSvg(replay, { theme: 'dark', title: 't', upTo: refused - 1 });
    expect(early).not.toContain('Refused by');
    expect(early).not.toContain('Ended: ');
  });

  it('keeps whatever a model wrote as text: no element comes out of a message', async () => {
    const { events } = await simulateRefunds();
    const at = events.findIndex((e) => e.type === 'message' && e.dialogue === 'fresh#1');
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (hostile) => {
        const text = `<script>x</script><img onerror=1>${hostile}`;
        const changed = events.map((e, i) =>
          i === at && e.type === 'message' ? { ...e, text } : e,
        );
        const svg = dialogueToSvg(replayOf(changed, 'fresh#1'), { theme: 'light', title: hostile });
        const tags = [...svg.matchAll(/<([a-zA-Z]+)/g)].map((m) => m[1]);
        expect(new Set(tags)).toEqual(new Set(['svg', 'rect', 'text']));
      }),
      { numRuns: 60 },
    );
  });

  it('wraps at spaces, cuts a word longer than a line, and keeps every character', () => {
    expect(wrapText('one two three', 7)).toEqual(['one two', 'three']);
    expect(wrapText('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.integer({ min: 1, max: 40 }), (text, width) => {
        const lines = wrapText(text, width);
        for (const line of lines) expect(line.length).toBeLessThanOrEqual(width);
        expect(lines.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
      }),
    );
  });
});
