import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  COLUMNS,
  GROUP_IDS,
  PANE_IDS,
  activePaneOf,
  collapsedPanesFrom,
  columnOf,
  cyclePane,
  defaultColumnSizes,
  defaultLayoutOf,
  enlargementsFor,
  hiddenPanesFrom,
  panelIdsOf,
  parseLayout,
  parseTabs,
  slotOf,
} from './paneLayout.ts';

describe('COLUMNS', () => {
  it('places each of the five panes exactly once, with splits that add up', () => {
    const panes = COLUMNS.flatMap((c) => c.slots.flatMap((s) => s.panes));
    expect(panes.sort()).toEqual([...PANE_IDS].sort());
    for (const column of COLUMNS) {
      if (column.slots.length > 1) expect(column.split?.reduce((a, b) => a + b, 0)).toBe(100);
    }
  });

  it('knows the column and slot of every pane', () => {
    for (const pane of PANE_IDS) {
      expect(slotOf(pane).panes).toContain(pane);
      expect(columnOf(pane).slots).toContain(slotOf(pane));
    }
  });
});

describe('defaultColumnSizes', () => {
  it('gives the author column room for the file list and an 80-column editor', () => {
    // 1280 wide: the editor needs ~760 px of the 1268 the workbench has.
    expect(defaultColumnSizes(1268)).toEqual({ author: 60, work: 40 });
    expect((defaultColumnSizes(1268).author ?? 0) * 12.68).toBeGreaterThanOrEqual(740);
    // Wide windows leave the graph the larger share; narrow ones never squeeze it out.
    expect(defaultColumnSizes(1908)).toEqual({ author: 45, work: 55 });
    expect(defaultColumnSizes(900)).toEqual({ author: 64, work: 36 });
  });

  it('adds up to 100 for any width, and so does every default layout', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8000 }), (width) => {
        for (const group of GROUP_IDS) {
          const layout = defaultLayoutOf(group, width);
          expect(Object.keys(layout).sort()).toEqual([...panelIdsOf(group)].sort());
          expect(Object.values(layout).reduce((a, b) => a + b, 0)).toBeCloseTo(100);
        }
      }),
    );
  });
});

describe('hiddenPanesFrom', () => {
  it('shows the first pane of a tabbed slot, or the one chosen', () => {
    expect(hiddenPanesFrom({ author: 60, work: 40, graph: 52, desk: 48 })).toEqual([
      'replay',
      'share',
    ]);
    expect(hiddenPanesFrom({ author: 60, work: 40 }, { desk: 'share' })).toEqual([
      'simulate',
      'replay',
    ]);
    // A tab saved for a pane that is not in the slot falls back to the slot's first.
    expect(activePaneOf(slotOf('simulate'), { desk: 'author' })).toBe('simulate');
  });

  it('hides a collapsed slot, and every pane of a collapsed column', () => {
    expect(
      hiddenPanesFrom({ author: 0, work: 100, graph: 0, desk: 100 }, { desk: 'replay' }),
    ).toEqual(['author', 'graph', 'simulate', 'share']);
    expect(collapsedPanesFrom({ author: 100, work: 0 })).toEqual([
      'graph',
      'simulate',
      'replay',
      'share',
    ]);
    expect(collapsedPanesFrom({ author: 50, work: 50, graph: 100, desk: 0 })).toEqual([
      'simulate',
      'replay',
      'share',
    ]);
  });
});

describe('enlargementsFor', () => {
  it('grows a sliver of a slot or column to a usable size and leaves usable ones alone', () => {
    expect(enlargementsFor('replay', { author: 80, work: 20, graph: 85, desk: 15 })).toEqual([
      { id: 'work', size: 30 },
      { id: 'desk', size: 48 },
    ]);
    expect(enlargementsFor('replay', { author: 60, work: 40, graph: 52, desk: 48 })).toEqual([]);
    expect(enlargementsFor('author', { author: 10, work: 90 })).toEqual([
      { id: 'author', size: 30 },
    ]);
  });
});

describe('parseLayout', () => {
  it('reads a layout of exactly the group’s panels', () => {
    expect(parseLayout('{"author":60,"work":40}', ['author', 'work'])).toEqual({
      author: 60,
      work: 40,
    });
    expect(parseLayout('{"graph":0,"desk":100}', ['graph', 'desk'])).toEqual({
      graph: 0,
      desk: 100,
    });
  });

  it('refuses the old three-column arrangement and anything broken', () => {
    const ids = ['author', 'work'];
    for (const junk of [
      null,
      '',
      'nope',
      '[]',
      '{}',
      'null',
      '{"author":38,"middle":34,"right":28}',
      '{"author":60}',
      '{"author":60,"work":40,"right":0}',
      '{"author":"60","work":40}',
      '{"author":-1,"work":101}',
      '{"author":60,"work":20}',
    ]) {
      expect(parseLayout(junk, ids)).toBeUndefined();
    }
  });
});

describe('parseTabs', () => {
  it('keeps a slot’s choice only when it is one of the slot’s panes', () => {
    expect(parseTabs('{"desk":"replay"}')).toEqual({ desk: 'replay' });
    expect(parseTabs('{"desk":"graph","graph":"share"}')).toEqual({});
    expect(parseTabs('not json')).toEqual({});
    expect(parseTabs(null)).toEqual({});
  });
});

describe('cyclePane', () => {
  it('steps through panes in order and wraps, skipping collapsed ones', () => {
    expect(cyclePane('author', [], 1)).toBe('graph');
    expect(cyclePane('share', [], 1)).toBe('author');
    expect(cyclePane('author', [], -1)).toBe('share');
    expect(cyclePane('author', ['graph', 'simulate'], 1)).toBe('replay');
    expect(cyclePane(undefined, ['author'], 1)).toBe('graph');
  });

  it('always lands on a pane not skipped, and visits them all in as many steps', () => {
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
});
