import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DiffLine } from './fileDiff.ts';
import { DIFF_LINE_CAP, diffFiles, diffLines, unifiedDiff } from './fileDiff.ts';

const text = (lines: readonly string[]) => lines.map((l) => `${l}\n`).join('');
const side = (lines: readonly DiffLine[], kind: 'removed' | 'added') =>
  lines.filter((l) => l.kind !== kind).map((l) => l.text);

describe('diffLines', () => {
  it('groups changes into hunks with three lines of context, numbered as a patch numbers them', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    const after = [...before];
    after[4] = 'line five'; // line 5 changed
    after.splice(15, 0, 'new line'); // inserted before line 16
    const diff = diffLines(text(before), text(after));
    expect(diff).toMatchObject({ added: 2, removed: 1, coarse: false });
    expect(
      diff.hunks.map((h) => [h.beforeStart, h.beforeCount, h.afterStart, h.afterCount]),
    ).toEqual([
      [2, 7, 2, 7],
      [13, 6, 13, 7],
    ]);
    expect(diff.hunks[0]?.lines.filter((l) => l.kind !== 'same')).toEqual([
      { kind: 'removed', text: 'line 5', before: 5 },
      { kind: 'added', text: 'line five', after: 5 },
    ]);
  });

  it('joins changes closer than twice the context into one hunk', () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i}`);
    const after = before.map((l, i) => (i === 3 || i === 10 ? `${l}!` : l));
    expect(diffLines(text(before), text(after)).hunks).toHaveLength(1);
    const apart = before.map((l, i) => (i === 3 || i === 11 ? `${l}!` : l));
    expect(diffLines(text(before), text(apart)).hunks).toHaveLength(2);
  });

  it('gives up matching line by line past the cap, and says so', () => {
    const many = (tag: string) => Array.from({ length: DIFF_LINE_CAP + 1 }, (_, i) => `${tag}${i}`);
    const diff = diffLines(text(many('a')), text(many('b')));
    expect(diff).toMatchObject({ coarse: true, added: DIFF_LINE_CAP + 1 });
    expect(diff.removed).toBe(DIFF_LINE_CAP + 1);
  });

  it('keeps every line of both texts, in order, on its side (property)', () => {
    const lines = fc.array(fc.constantFrom('a', 'b', 'c', 'd', ''), { maxLength: 30 });
    fc.assert(
      fc.property(lines, lines, (x, y) => {
        // With context to spare, one hunk holds the whole of both files.
        const { hunks, added, removed } = diffLines(text(x), text(y), 1_000);
        const all = hunks.flatMap((h) => h.lines);
        if (hunks.length > 0) {
          expect(side(all, 'added')).toEqual(x);
          expect(side(all, 'removed')).toEqual(y);
        } else expect(x).toEqual(y);
        // A longest common subsequence: nothing shorter than what both keep was matched.
        expect(all.filter((l) => l.kind === 'same').length).toBe(
          hunks.length === 0 ? 0 : lcsLength(x, y),
        );
        expect(added - removed).toBe(y.length - x.length);
      }),
    );
  });
});

function lcsLength(x: readonly string[], y: readonly string[]): number {
  const row = new Array<number>(y.length + 1).fill(0);
  for (const a of x) {
    let diagonal = 0;
    for (let j = 1; j <= y.length; j++) {
      const up = row[j] ?? 0;
      row[j] = a === y[j - 1] ? diagonal + 1 : Math.max(up, row[j - 1] ?? 0);
      diagonal = up;
    }
  }
  return row[y.length] ?? 0;
}

describe('diffFiles', () => {
  it('lists only the files that differ, in name order, with whether each was added or removed', () => {
    const diffs = diffFiles(
      { 'agent.md': 'Be kind.\n', 'rules.yaml': 'a: 1\n', 'old.md': 'x\n' },
      { 'agent.md': 'Be kind.\nBe brief.\n', 'rules.yaml': 'a: 1\n', 'new.md': 'y\n' },
    );
    expect(diffs.map((d) => [d.file, d.status, d.added, d.removed])).toEqual([
      ['agent.md', 'changed', 1, 0],
      ['new.md', 'added', 1, 0],
      ['old.md', 'removed', 0, 1],
    ]);
    expect(diffFiles({ a: 'same' }, { a: 'same' })).toEqual([]);
  });

  it('writes a unified diff that git applies to give the second version (property)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'policylab-diff-'));
    try {
      const lines = fc.array(fc.constantFrom('alpha', 'beta', 'gamma', '  - id: x', ''), {
        maxLength: 25,
      });
      fc.assert(
        fc.property(lines, lines, (x, y) => {
          writeFileSync(join(dir, 'f.yaml'), text(x));
          const patch = unifiedDiff(diffFiles({ 'f.yaml': text(x) }, { 'f.yaml': text(y) }));
          if (patch === '') {
            expect(x).toEqual(y);
            return;
          }
          writeFileSync(join(dir, 'p.diff'), patch);
          execFileSync('git', ['apply', '--whitespace=nowarn', 'p.diff'], {
            cwd: dir,
            stdio: 'pipe',
          });
          expect(readFileSync(join(dir, 'f.yaml'), 'utf8')).toBe(text(y));
        }),
        { numRuns: 40 },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
