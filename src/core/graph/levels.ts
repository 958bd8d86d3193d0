/** An inclusive band of levels, a level being the summed challenge of a policy combination. */
export interface LevelBand {
  readonly min: number;
  readonly max: number;
}

/** The band sampled when none is given: the page's form, `policylab sample` and run.yaml. */
export const DEFAULT_LEVELS: LevelBand = { min: 4, max: 8 };

/** The highest level a band may reach (a combination of 200 policies of challenge 5). */
export const MAX_LEVEL = 1000;

/**
 * Reads a level band as people type it: "4-8", "4 - 8", or one level "6". Returns the band, or a
 * message saying what a band looks like.
 */
export function parseLevelBand(
  text: string,
): { readonly band: LevelBand } | { readonly problem: string } {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(text);
  const min = Number(match?.[1]);
  const max = Number(match?.[2] ?? match?.[1]);
  if (match === null || min < 1 || max < min || max > MAX_LEVEL)
    return {
      problem: `Levels must be a level or a band such as 4-8, from 1 to ${MAX_LEVEL}, not "${text}".`,
    };
  return { band: { min, max } };
}

/** A band as people write it: "4-8", or "6" for a single level. */
export function formatLevelBand(band: LevelBand): string {
  return band.min === band.max ? String(band.min) : `${band.min}-${band.max}`;
}
