import type { ReactNode } from 'react';
import type { CandidatePolicy } from '../../core/index.ts';

/**
 * One candidate policy to tick, as both ways of extraction list them: its id, category,
 * challenge, where it came from, its tools and text, then any notes. Shown as plain text.
 */
export function CandidateItem({
  candidate: c,
  where,
  ticked,
  onTick,
  children,
}: {
  candidate: CandidatePolicy;
  /** Where in agent.md it came from ("line 4"). */
  where: string;
  ticked: boolean;
  onTick: (ticked: boolean) => void;
  children?: ReactNode;
}) {
  return (
    <li>
      <label>
        <input
          type="checkbox"
          checked={ticked}
          onChange={(e) => {
            onTick(e.currentTarget.checked);
          }}
        />
        <span className="candidate-id">{c.id}</span>
        <span className="candidate-meta">
          {c.category} · challenge {c.challenge} · {where}
          {c.tools.length > 0 && ` · ${c.tools.join(', ')}`}
        </span>
        <span className="candidate-text">{c.text}</span>
        {children}
      </label>
    </li>
  );
}

/** `skipped` with `id` taken out (ticked) or put in (unticked). */
export function withTick(skipped: ReadonlySet<string>, id: string, ticked: boolean): Set<string> {
  const next = new Set(skipped);
  if (ticked) next.delete(id);
  else next.add(id);
  return next;
}
