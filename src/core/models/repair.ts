/** What a model is told when its answer could not be used. */
export function repairNote(problem: string): string {
  return `Your last answer was invalid: ${problem} Answer again, correctly.`;
}
