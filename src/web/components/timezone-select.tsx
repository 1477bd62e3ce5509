import { Select, type ComboboxItem, type OptionsFilter, type SelectProps } from '@mantine/core';
import { useMemo } from 'react';
import { timeZoneNames } from '../../shared/time-zones.ts';

/** "UTC+05:30" for a zone, now (daylight saving included), or '' when the engine cannot say. */
export function utcOffset(zone: string, at = new Date()): string {
  try {
    const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value;
    if (!part) return '';
    return part === 'GMT' ? 'UTC+00:00' : part.replace('GMT', 'UTC');
  } catch {
    return '';
  }
}

/** "America/New York (UTC−05:00)": underscores read as spaces; the value stays the IANA name. */
export function timeZoneLabel(zone: string): string {
  const offset = utcOffset(zone);
  return `${zone.replaceAll('_', ' ')}${offset ? ` (${offset})` : ''}`;
}

function options(): { group: string; items: ComboboxItem[] }[] {
  const groups = new Map<string, ComboboxItem[]>();
  for (const zone of timeZoneNames()) {
    const area = zone.includes('/') ? zone.slice(0, zone.indexOf('/')) : 'Other';
    if (!groups.has(area)) groups.set(area, []);
    groups.get(area)!.push({ value: zone, label: timeZoneLabel(zone) });
  }
  return [...groups.entries()].map(([group, items]) => ({ group, items }));
}

/** Every word typed must appear in the label or the IANA name: "york new", "berlin", "utc+05", "los_angeles". */
export const timeZoneFilter: OptionsFilter = ({ options: all, search }) => {
  const words = search.toLowerCase().replaceAll('_', ' ').split(/\s+/).filter(Boolean);
  const matches = (item: ComboboxItem) => {
    const hay = `${item.label} ${item.value}`.toLowerCase().replaceAll('_', ' ');
    return words.every((w) => hay.includes(w));
  };
  return all
    .map((entry) => ('group' in entry ? { ...entry, items: entry.items.filter(matches) } : entry))
    .filter((entry) => ('group' in entry ? entry.items.length > 0 : matches(entry as ComboboxItem)));
};

/** The browser's own zone, a sensible default for a new assistant. */
export function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone ?? null;
  } catch {
    return null;
  }
}

/** A searchable IANA time-zone picker grouped by area, each zone with its current UTC offset. */
export function TimezoneSelect(props: Omit<SelectProps, 'data' | 'filter'>) {
  const base = useMemo(() => options(), []);
  const { value } = props;
  // A zone the server holds that this browser does not list (an alias such as US/Eastern) still shows.
  const data = useMemo(
    () => (value && !base.some((g) => g.items.some((i) => i.value === value)) ? [...base, { group: 'Saved', items: [{ value, label: timeZoneLabel(value) }] }] : base),
    [base, value],
  );
  return (
    <Select
      searchable
      nothingFoundMessage="No time zone matches"
      maxDropdownHeight={300}
      clearButtonProps={{ 'aria-label': 'Clear time zone' }}
      {...props}
      data={data}
      filter={timeZoneFilter}
    />
  );
}
