import type { SortState } from './chartMath.ts';
import { nextSort } from './chartMath.ts';

/** A column header that sorts its table on click, saying how it is sorted through aria-sort. */
export function SortHeader<K extends string>({
  label,
  column,
  sort,
  onSort,
}: {
  label: string;
  column: K;
  sort: SortState<K> | null;
  onSort: (next: SortState<K>) => void;
}) {
  const active = sort?.key === column;
  return (
    <th scope="col" aria-sort={active ? sort.direction : 'none'}>
      <button
        type="button"
        className="sort-button"
        onClick={() => {
          onSort(nextSort(sort, column));
        }}
      >
        {label}
        <span aria-hidden="true">
          {active ? (sort.direction === 'ascending' ? ' ▲' : ' ▼') : ' ↕'}
        </span>
      </button>
    </th>
  );
}
