import type { ImportedValidator } from '../domain.ts';
import type { CarryNote } from './carry.ts';

/**
 * One note per IntellAgent data validator: a check IntellAgent runs on the rows its generator
 * makes, which has no place in a project (its rows are written, not generated); named with where
 * it is and, when that reads plainly, what it checks.
 */
export function validatorNotes(validators: readonly ImportedValidator[]): CarryNote[] {
  return validators.map((v) => ({
    file: 'database.yaml',
    item: `validator ${v.name}${v.table === undefined ? '' : ` (table ${v.table})`}`,
    message: `A check IntellAgent runs on the rows it generates; not carried (${v.place.file}${v.place.line === undefined ? '' : `:${v.place.line}`}).${v.checks === undefined ? '' : ` ${v.checks}`}`,
  }));
}
