import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COLUMNS, PANE_IDS, columnOf, cyclePane, hiddenPanesFrom } from './paneLayout.ts';

describe('COLUMNS', () => {
  it('places each of the five panes exactly once, with sizes that add up', () => {
    expect(COLUMNS.flatMap((c) => c.panes).sort()).toEqual([...PANE_IDS].sort());
    expect(COLUMNS.reduce((sum, c) => sum + c.size, 0)).toBe(100);
    for (const column of COLUMNS) {
      if (column.panes.length > 1) expect(column.split?.reduce((a, b) => a + b, 0)).toBe(100);
    }
  });
});

describe('hiddenPanesFrom', () => {
  it('hides nothing when every panel has size', () => {
    expect(hiddenPanesFrom({ author: 38, middle: 34, right: 28, graph: 50, simulate: 50 })).toEqual(
      [],
    );
  });

  it('hides a collapsed pane, and every pane of a collapsed column', () => {
    expect(hiddenPanesFrom({ author: 0, middle: 60, right: 40, graph: 0, simulate: 100 })).toEqual([
      'author',
      'graph',
    ]);
    expect(hiddenPanesFrom({ author: 50, middle: 50, right: 0, replay: 60, share: 40 })).toEqual([
      'replay',
      'share',
    ]);
  });
});

describe('cyclePane', () => {
  it('steps through visible panes in order and wraps', () => {
    expect(cyclePane('author', [], 1)).toBe('graph');
    expect(cyclePane('share', [], 1)).toBe('author');
    expect(cyclePane('author', [], -1)).toBe('share');
    expect(cyclePane('author', ['graph', 'simulate'], 1)).toBe('replay');
    expect(cyclePane(undefined, ['author'], 1)).toBe('graph');
  });

  it('always lands on a visible pane, and visits them all in as many steps', () => {
    const paneArb = fc.constantFrom(...PANE_IDS);
    fc.assert(
      fc.property(
        fc.uniqueArray(paneArb, { maxLength: 4 }),
        paneArb,
        fc.constantFrom<1 | -1>(1, -1),
        (hidden, start, dir) => {
          const seen = new Set<string>();
          let at: (typeof PANE_IDS)[number] | undefined = start;
          const visibleCount = PANE_IDS.length - hidden.length;
          for (let i = 0; i < visibleCount; i++) {
            at = cyclePane(at, hidden, dir);
            expect(at).toBeDefined();
            expect(hidden).not.toContain(at);
            if (at !== undefined) seen.add(at);
          }
          expect(seen.size).toBe(visibleCount);
        },
      ),
    );
  });

  it('knows the column of every pane', () => {
    for (const pane of PANE_IDS) expect(columnOf(pane).panes).toContain(pane);
  });
});
