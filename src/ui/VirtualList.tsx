import type { ReactNode } from 'react';
import { useLayoutEffect, useRef, useState } from 'react';

/** Rows drawn beyond the visible ones on each side, so a fast scroll shows no gap. */
const OVERSCAN = 6;

/**
 * A list of many equal-height rows that draws only the rows in view (and a few around them), so
 * thousands of rows scroll as smoothly as ten. `render` draws one row; `keyOf` names it.
 */
export function VirtualList<T>({
  items,
  rowHeight,
  render,
  keyOf,
  label,
  className,
  scrollTo,
}: {
  items: readonly T[];
  rowHeight: number;
  render: (item: T, index: number) => ReactNode;
  keyOf: (item: T) => string;
  label: string;
  className?: string;
  /** An index to bring into view when it changes (the selected row). */
  scrollTo?: number | undefined;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 400 });

  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => {
      setView({ top: element.scrollTop, height: element.clientHeight || 400 });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => {
      observer.disconnect();
    };
  }, []);

  useLayoutEffect(() => {
    const element = box.current;
    if (!element || scrollTo === undefined || scrollTo < 0) return;
    const top = scrollTo * rowHeight;
    if (top < element.scrollTop) element.scrollTop = top;
    else if (top + rowHeight > element.scrollTop + element.clientHeight)
      element.scrollTop = top + rowHeight - element.clientHeight;
  }, [scrollTo, rowHeight]);

  const first = Math.max(0, Math.floor(view.top / rowHeight) - OVERSCAN);
  const last = Math.min(items.length, Math.ceil((view.top + view.height) / rowHeight) + OVERSCAN);
  const shown = items.slice(first, last);

  return (
    <div
      ref={box}
      className={`virtual-list${className ? ` ${className}` : ''}`}
      onScroll={(e) => {
        const element = e.currentTarget;
        setView({ top: element.scrollTop, height: element.clientHeight || 400 });
      }}
    >
      <ul
        aria-label={label}
        className="virtual-list-body"
        style={{ height: items.length * rowHeight }}
      >
        {shown.map((item, i) => (
          <li
            key={keyOf(item)}
            className="virtual-list-row"
            style={{ top: (first + i) * rowHeight, height: rowHeight }}
          >
            {render(item, first + i)}
          </li>
        ))}
      </ul>
    </div>
  );
}
