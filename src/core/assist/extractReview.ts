import type { CandidatePolicy } from '../extract.ts';
import { newCandidates } from '../extract.ts';
import type { Policy } from '../format/model.ts';
import type { ModelCandidate } from './extractByModel.ts';
import { sameRule } from './extractByModel.ts';

// What a person reviews after a model extracted policies: each proposal next to what the
// rules-based extraction found and what policies.yaml already holds, and the rules-based
// candidates no proposal states. Deterministic; nothing here calls a model.

/** One proposal with what else states its rule. */
export interface ReviewedProposal {
  readonly candidate: ModelCandidate;
  /** The rules-based candidate that states the same rule, if one does. */
  readonly ruleBased: string | null;
  /** The policy of policies.yaml that already holds it (same rule, id, or source lines), if any. */
  readonly existing: string | null;
}

/** The proposals to review, and the rules-based candidates the model did not propose. */
export interface ExtractReview {
  readonly proposals: readonly ReviewedProposal[];
  readonly missed: readonly CandidatePolicy[];
}

/**
 * Sets the model's proposals beside the rules-based candidates (`sameRule`) and the project's
 * policies: a proposal whose rule a policy states, or that `addPoliciesToYaml` would skip (its id,
 * text or source lines taken), names that policy.
 */
export function reviewProposals(
  candidates: readonly ModelCandidate[],
  ruleBased: readonly CandidatePolicy[],
  policies: readonly Policy[],
): ExtractReview {
  const proposals = candidates.map((candidate): ReviewedProposal => {
    const rule = ruleBased.find((r) => sameRule(r.text, candidate.text));
    return {
      candidate,
      ruleBased: rule?.id ?? null,
      existing: holder(candidate, policies),
    };
  });
  const missed = ruleBased.filter((r) => !candidates.some((c) => sameRule(r.text, c.text)));
  return { proposals, missed };
}

/** The policy that holds a candidate already, if one does. */
function holder(candidate: ModelCandidate, policies: readonly Policy[]): string | null {
  const same = policies.find((p) => sameRule(p.text, candidate.text));
  if (same) return same.id;
  if (newCandidates([candidate], policies).length > 0) return null;
  const { line } = candidate.source;
  const covering = policies.find(
    (p) =>
      p.id === candidate.id ||
      (p.source !== undefined &&
        p.source.line <= line &&
        line <= (p.source.endLine ?? p.source.line)),
  );
  return (
    covering?.id ??
    policies.find((p) => p.text.trim().toLowerCase() === candidate.text.toLowerCase())?.id ??
    null
  );
}
