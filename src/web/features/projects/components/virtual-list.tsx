import { useState, type ReactNode } from 'react';

/**
 * A list that renders only the lines in view (fixed line height), so 10 000 contexts scroll smoothly.
 * Each line carries its position and the list's size for screen readers.
 */
export function VirtualList<T>({
  items,
  lineHeight,
  maxHeight,
  label,
  itemKey,
  renderItem,
}: {
  items: T[];
  lineHeight: number;
  maxHeight: number;
  label: string;
  itemKey: (item: T) => string;
  renderItem: (item: T, index: number) => ReactNode;
}) {
  const [scrollTop, setScrollTop] = useState(0);
  const total = items.length * lineHeight;
  const height = Math.min(total, maxHeight);
  const overscan = 8;
  const first = Math.max(0, Math.floor(scrollTop / lineHeight) - overscan);
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / lineHeight) + overscan);
  const shown = [];
  for (let index = first; index < last; index += 1) {
    const item = items[index]!;
    shown.push(
      <li
        key={itemKey(item)}
        aria-setsize={items.length}
        aria-posinset={index + 1}
        style={{ position: 'absolute', top: index * lineHeight, left: 0, right: 0, height: lineHeight, listStyle: 'none' }}
      >
        {renderItem(item, index)}
      </li>,
    );
  }
  return (
    <div style={{ height, overflowY: 'auto', position: 'relative' }} onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}>
      <ul aria-label={label} style={{ position: 'relative', height: total, margin: 0, padding: 0 }}>
        {shown}
      </ul>
    </div>
  );
}
