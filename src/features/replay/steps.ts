import type { ReplayStep } from '../../core/index.ts';

/** A step a person would jump to: a finding or an opinion is pinned there, or a policy broke. */
export const isFinding = (s: ReplayStep) => s.pinned || s.breached.length > 0;

/** A tool call's step. */
export const isCall = (s: ReplayStep) => s.kind === 'call';
