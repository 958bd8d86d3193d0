import { useAppStore } from '../../../state/useAppStore.ts';

/** Two lists of this project's saved runs: the baseline (before) and the run in question (after). */
export function RunPickers() {
  const runList = useAppStore((s) => s.runList);
  const before = useAppStore((s) => s.compareBefore?.id ?? '');
  const after = useAppStore((s) => s.compareAfter?.id ?? '');
  const pick = useAppStore((s) => s.pickCompareRuns);
  const picker = (side: 'before' | 'after', label: string, value: string) => (
    <label className="compare-picker">
      <span>{label}</span>
      <select
        value={value}
        onChange={(e) => void pick({ [side]: e.target.value === '' ? null : e.target.value })}
      >
        <option value="">Choose a run…</option>
        {runList.map((r) => (
          <option key={r.id} value={r.id}>
            {r.title} · {new Date(r.createdAt).toLocaleString()}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div className="compare-pickers">
      {picker('before', 'Before', before)}
      {picker('after', 'After', after)}
    </div>
  );
}
