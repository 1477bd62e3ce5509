import { describe, expect, it } from 'vitest';
import { timeZoneNames } from '../../shared/time-zones.ts';
import { timeZoneFilter, timeZoneLabel, utcOffset } from './timezone-select.tsx';

describe('time zone picker helpers', () => {
  it('lists IANA zones including UTC', () => {
    const zones = timeZoneNames();
    expect(zones).toContain('UTC');
    expect(zones).toContain('Europe/Berlin');
    expect(zones).toContain('America/New_York');
  });

  it('shows the offset at a given moment, daylight saving included', () => {
    expect(utcOffset('Asia/Kolkata')).toBe('UTC+05:30');
    expect(utcOffset('UTC')).toBe('UTC+00:00');
    expect(utcOffset('Europe/Berlin', new Date('2026-01-15T12:00:00Z'))).toBe('UTC+01:00');
    expect(utcOffset('Europe/Berlin', new Date('2026-07-15T12:00:00Z'))).toBe('UTC+02:00');
    expect(utcOffset('Not/AZone')).toBe('');
  });

  it('labels read with spaces while the value keeps the IANA name', () => {
    expect(timeZoneLabel('America/New_York')).toMatch(/^America\/New York \(UTC-0[45]:00\)$/);
  });

  it('search matches every typed word, underscores or spaces alike, inside groups', () => {
    const options = [
      {
        group: 'America',
        items: [
          { value: 'America/New_York', label: 'America/New York (UTC-05:00)' },
          { value: 'America/Chicago', label: 'America/Chicago (UTC-06:00)' },
        ],
      },
      { group: 'Europe', items: [{ value: 'Europe/Berlin', label: 'Europe/Berlin (UTC+01:00)' }] },
    ];
    const names = (search: string) =>
      timeZoneFilter({ options, search, limit: 1000 }).flatMap((g) => ('group' in g ? g.items.map((i) => i.value) : [(g as { value: string }).value]));
    expect(names('york new')).toEqual(['America/New_York']);
    expect(names('new_york')).toEqual(['America/New_York']);
    expect(names('utc+01')).toEqual(['Europe/Berlin']);
    expect(names('america')).toEqual(['America/New_York', 'America/Chicago']);
    expect(names('nowhere')).toEqual([]);
  });
});
