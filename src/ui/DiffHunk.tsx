import type { DiffHunk } from '../core/index.ts';
import './diffHunk.css';

const SIGNS = { same: ' ', removed: '−', added: '+' } as const;
const SIGN_WORDS = { same: 'unchanged', removed: 'removed', added: 'added' } as const;

/** One hunk of a line diff: its lines, numbered in each version, removed and added lines marked. */
export function DiffHunkTable({ hunk }: { hunk: DiffHunk }) {
  return (
    <table className="file-diff-hunk">
      <caption className="visually-hidden">
        Lines {hunk.beforeStart} to {hunk.beforeStart + Math.max(0, hunk.beforeCount - 1)} before,{' '}
        {hunk.afterStart} to {hunk.afterStart + Math.max(0, hunk.afterCount - 1)} after
      </caption>
      <tbody>
        {hunk.lines.map((l, i) => (
          <tr key={i} data-kind={l.kind}>
            <td className="file-diff-number">{l.kind === 'added' ? '' : l.before}</td>
            <td className="file-diff-number">{l.kind === 'removed' ? '' : l.after}</td>
            <td className="file-diff-sign" aria-label={SIGN_WORDS[l.kind]}>
              {SIGNS[l.kind]}
            </td>
            <td className="file-diff-text">{l.text}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
