/**
 * Damaged or hostile entries in the unsaved-edits journal (localStorage, `policylab.unsaved.*`):
 * another script on the origin, an older build or a half-written value. Reading them must skip
 * them, never throw, never apply them.
 */
const GOOD_SHAPE = {
  projectId: 'p1',
  tab: 'other',
  name: 'Mine',
  at: '2026-01-01T00:00:00.000Z',
  files: { 'agent.md': '# spoofed\n' },
  base: { 'agent.md': '0.0' },
};

export const CORRUPT_JOURNAL_ENTRIES: Record<string, string> = {
  'policylab.unsaved.["p1","a"]': '{"projectId": "p1", "tab": "a", "files": ',
  'policylab.unsaved.["p1","b"]': 'null',
  'policylab.unsaved.["p1","c"]': JSON.stringify({ ...GOOD_SHAPE, tab: 'c', files: ['x'] }),
  'policylab.unsaved.["p1","d"]': JSON.stringify({
    ...GOOD_SHAPE,
    tab: 'd',
    files: { '../evil.js': 'x' },
    base: { '../evil.js': 'x' },
  }),
  'policylab.unsaved.["p1","e"]': '{"__proto__": {"polluted": true}, "projectId": "p1"}',
  // A well-formed entry under a key that does not name it: refused as spoofed.
  'policylab.unsaved.["p1","f"]': JSON.stringify(GOOD_SHAPE),
  'policylab.unsaved.': JSON.stringify(GOOD_SHAPE),
};
