import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EditHistory, EditOrigin, TextChange } from './history.ts';
import { EMPTY_HISTORY, compose, diffText, recordEdit, redoStep, undoStep } from './history.ts';
import type { Project, ProjectFileName } from './project.ts';
import { createProject } from './project.ts';

type Files = Project['files'];

const start = createProject('History').files;

function edit(files: Files, file: ProjectFileName, text: string): Files {
  return { ...files, [file]: text };
}

function apply(text: string, c: { at: number; removed: string; inserted: string }): string {
  return text.slice(0, c.at) + c.inserted + text.slice(c.at + c.removed.length);
}

describe('diffText', () => {
  it('finds the one changed span', () => {
    expect(diffText('policies: []\n', 'policies: [a]\n')).toEqual({
      at: 11,
      removed: '',
      inserted: 'a',
    });
    expect(diffText('same', 'same')).toBeUndefined();
  });

  it('turns any text into any other', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const d = diffText(a, b);
        expect(d ? apply(a, d) : a).toBe(b);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('compose', () => {
  it('equals applying two changes in turn', () => {
    const change = (text: string) =>
      fc
        .tuple(fc.nat(text.length), fc.nat(text.length), fc.string({ maxLength: 4 }))
        .map(([x, y, inserted]): TextChange => {
          const [lo, hi] = x <= y ? [x, y] : [y, x];
          return { file: 'agent.md', at: lo, removed: text.slice(lo, hi), inserted };
        });
    fc.assert(
      fc.property(
        fc
          .string({ maxLength: 12 })
          .chain((a) => change(a).map((c1) => ({ a, c1, b: apply(a, c1) })))
          .chain(({ a, c1, b }) => change(b).map((c2) => ({ a, b, c1, c2 }))),
        ({ a, b, c1, c2 }) => {
          const c = apply(b, c2);
          const merged = compose(c1, c2, b, c);
          expect(apply(a, merged)).toBe(c);
          expect(a.slice(merged.at, merged.at + merged.removed.length)).toBe(merged.removed);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('recordEdit', () => {
  it('joins typing without a pause into one step, and starts a new one after a pause', () => {
    let history: EditHistory = EMPTY_HISTORY;
    let files = start;
    for (const [i, ch] of ['a', 'b', 'c'].entries()) {
      const next = edit(files, 'agent.md', files['agent.md'] + ch);
      history = recordEdit(history, files, next, {
        origin: 'type',
        label: 'Typing',
        time: i * 100,
      });
      files = next;
    }
    expect(history.undo).toHaveLength(1);
    const later = edit(files, 'agent.md', `${files['agent.md']}d`);
    history = recordEdit(history, files, later, { origin: 'type', label: 'Typing', time: 5_000 });
    expect(history.undo).toHaveLength(2);
  });

  /**
   * Records one edit per origin, 10 ms apart, each appending to policies.yaml right where the
   * one before ended: the same file, inside the typing pause, touching. Typing like this joins.
   */
  function appendAll(origins: readonly EditOrigin[]) {
    let history: EditHistory = EMPTY_HISTORY;
    let files = start;
    const after: Files[] = [];
    for (const [i, origin] of origins.entries()) {
      const next = edit(files, 'policies.yaml', `${files['policies.yaml']}${i}`);
      history = recordEdit(history, files, next, { origin, label: origin, time: i * 10 });
      files = next;
      after.push(files);
    }
    return { history, files, after };
  }

  const NOT_TYPING = ['graph', 'edit', 'command'] as const;

  it('joins typing that appends right after typing (the setting of the next tests)', () => {
    const { history } = appendAll(['type', 'type', 'type']);
    expect(history.undo.map((e) => e.origin)).toEqual(['type']);
  });

  it('never joins a graph edit, an edit or a command to typing just before it', () => {
    for (const origin of NOT_TYPING) {
      const { history, files, after } = appendAll(['type', origin]);
      expect(history.undo.map((e) => e.origin)).toEqual(['type', origin]);
      expect(history.undo.map((e) => e.changes.length)).toEqual([1, 1]);
      // Undo takes back the non-typing edit alone: the typed text stays.
      expect(undoStep(history, files)?.files).toEqual(after[0]);
    }
  });

  it('never joins typing to a graph edit, an edit or a command just before it', () => {
    for (const origin of NOT_TYPING) {
      const { history, files, after } = appendAll([origin, 'type']);
      expect(history.undo.map((e) => e.origin)).toEqual([origin, 'type']);
      // Undo takes back the typing alone: the graph edit stays.
      expect(undoStep(history, files)?.files).toEqual(after[0]);
    }
  });

  it('keeps each graph edit, edit and command a step of its own, even right after its like', () => {
    for (const origin of NOT_TYPING) {
      const { history } = appendAll([origin, origin, origin]);
      expect(history.undo.map((e) => e.origin)).toEqual([origin, origin, origin]);
    }
  });

  it('never puts a non-typing edit in a step with another edit, whatever the order and timing', () => {
    const files = ['agent.md', 'policies.yaml'] as const;
    const action = fc.record({
      file: fc.constantFrom(...files),
      // Appending at the end often touches the last change, so steps get the chance to join.
      at: fc.oneof(fc.constant('end' as const), fc.nat()),
      cut: fc.nat(2),
      text: fc.string({ minLength: 1, maxLength: 2 }),
      origin: fc.constantFrom<EditOrigin>('type', 'type', 'edit', 'graph', 'command'),
      gap: fc.nat(1_500),
    });
    fc.assert(
      fc.property(fc.array(action, { maxLength: 30 }), (actions) => {
        let history: EditHistory = EMPTY_HISTORY;
        let current = start;
        let time = 0;
        // The origins of the edits in each undo step, in the order the steps were made.
        const steps: EditOrigin[][] = [];
        for (const a of actions) {
          const text = current[a.file];
          const at = a.at === 'end' ? text.length : a.at % (text.length + 1);
          const next = edit(current, a.file, text.slice(0, at) + a.text + text.slice(at + a.cut));
          time += a.gap;
          const recorded = recordEdit(history, current, next, {
            origin: a.origin,
            label: '',
            time,
          });
          if (recorded.undo.length > history.undo.length) steps.push([a.origin]);
          else if (recorded !== history) steps.at(-1)?.push(a.origin);
          history = recorded;
          current = next;
        }
        for (const step of steps) {
          if (step.some((origin) => origin !== 'type')) expect(step).toHaveLength(1);
        }
        expect(history.undo.map((e) => e.origin)).toEqual(steps.map((s) => s[0]));
      }),
      { numRuns: 1000 },
    );
  });

  it('does not join typing in two places far apart', () => {
    const text = 'one two three four';
    const files = edit(start, 'agent.md', text);
    const first = edit(files, 'agent.md', `X${text}`);
    let history = recordEdit(EMPTY_HISTORY, files, first, { origin: 'type', label: '', time: 0 });
    const second = edit(first, 'agent.md', `${first['agent.md']}Y`);
    history = recordEdit(history, first, second, { origin: 'type', label: '', time: 10 });
    expect(history.undo).toHaveLength(2);
  });
});

describe('undoStep and redoStep', () => {
  it('undo per file leaves the other files alone, and redo brings the step back', () => {
    let history: EditHistory = EMPTY_HISTORY;
    let files = start;
    const step = (file: ProjectFileName, text: string, origin: EditOrigin, time: number) => {
      const next = edit(files, file, text);
      history = recordEdit(history, files, next, { origin, label: origin, time });
      files = next;
    };
    step('policies.yaml', 'policies:\n  - id: a\n', 'graph', 0);
    step('tools.yaml', 'tools: [x]\n', 'edit', 10);
    const undone = undoStep(history, files, 'policies.yaml');
    expect(undone?.files['policies.yaml']).toBe(start['policies.yaml']);
    expect(undone?.files['tools.yaml']).toBe('tools: [x]\n');
    expect(undone?.focus.file).toBe('policies.yaml');
    const redone = undone && redoStep(undone.history, undone.files, 'policies.yaml');
    expect(redone?.files).toEqual(files);
  });

  it('undoes only the scope of a several-file step once another of its files moved on', () => {
    const both = { ...start, 'agent.md': 'renamed\n', 'rules.yaml': 'renamed: 1\n' };
    let history = recordEdit(EMPTY_HISTORY, start, both, { origin: 'command', label: '', time: 0 });
    const later = edit(both, 'rules.yaml', 'renamed: 1\nmore: 2\n');
    history = recordEdit(history, both, later, { origin: 'edit', label: '', time: 1 });
    const undone = undoStep(history, later, 'agent.md');
    expect(undone?.files['agent.md']).toBe(start['agent.md']);
    expect(undone?.files['rules.yaml']).toBe('renamed: 1\nmore: 2\n');
    // The rules.yaml half is still there to undo, after the later edit.
    const next = undone && undoStep(undone.history, undone.files, 'rules.yaml');
    const last = next && undoStep(next.history, next.files, 'rules.yaml');
    expect(last?.files).toEqual(start);
  });

  it('undoing everything gives back the start, and redoing everything the end', () => {
    const files = ['agent.md', 'policies.yaml', 'tools.yaml'] as const;
    const action = fc.record({
      file: fc.constantFrom(...files),
      at: fc.nat(),
      cut: fc.nat(3),
      text: fc.string({ maxLength: 3 }),
      origin: fc.constantFrom<EditOrigin>('type', 'edit', 'graph'),
      gap: fc.nat(1_500),
    });
    fc.assert(
      fc.property(fc.array(action, { maxLength: 25 }), (actions) => {
        let history: EditHistory = EMPTY_HISTORY;
        let current = start;
        let time = 0;
        for (const a of actions) {
          const text = current[a.file];
          const at = a.at % (text.length + 1);
          const next = edit(current, a.file, text.slice(0, at) + a.text + text.slice(at + a.cut));
          time += a.gap;
          history = recordEdit(history, current, next, { origin: a.origin, label: '', time });
          current = next;
        }
        const end = current;
        let files = current;
        for (let move = undoStep(history, files); move; move = undoStep(history, files)) {
          ({ history, files } = move);
        }
        expect(files).toEqual(start);
        for (let move = redoStep(history, files); move; move = redoStep(history, files)) {
          ({ history, files } = move);
        }
        expect(files).toEqual(end);
      }),
      { numRuns: 1000 },
    );
  });
});
