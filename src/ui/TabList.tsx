/** One tab: its id (used in element ids) and its label. */
export interface TabSpec<T extends string> {
  readonly id: T;
  readonly label: string;
}

/**
 * A row of tabs over one panel: the tab with id `selected` is marked, and its panel is expected at
 * `${idPrefix}-panel-${id}` (see `tabPanelProps`).
 */
export function TabList<T extends string>({
  label,
  idPrefix,
  tabs,
  selected,
  onSelect,
  className,
}: {
  label: string;
  idPrefix: string;
  tabs: readonly TabSpec<T>[];
  selected: T;
  onSelect: (id: T) => void;
  className: string;
}) {
  return (
    <div className={`tab-list ${className}`} role="tablist" aria-label={label}>
      {tabs.map(({ id, label: text }) => (
        <button
          key={id}
          type="button"
          role="tab"
          id={`${idPrefix}-tab-${id}`}
          aria-selected={selected === id}
          aria-controls={`${idPrefix}-panel-${id}`}
          className="tab"
          onClick={() => {
            onSelect(id);
          }}
        >
          {text}
        </button>
      ))}
    </div>
  );
}

/** The attributes of the panel under a `TabList`. */
export function tabPanelProps(idPrefix: string, selected: string) {
  return {
    role: 'tabpanel',
    id: `${idPrefix}-panel-${selected}`,
    'aria-labelledby': `${idPrefix}-tab-${selected}`,
  } as const;
}
