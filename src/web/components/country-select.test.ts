import { describe, expect, it } from 'vitest';
import { countryOptions } from './country-select.tsx';

describe('country picker options', () => {
  const options = countryOptions(['en']);

  it('lists the assigned ISO 3166-1 codes only, not withdrawn or reserved ones the runtime can name', () => {
    const codes = options.map((o) => o.value);
    expect(codes).toHaveLength(249);
    expect(codes).toEqual(expect.arrayContaining(['DE', 'GB', 'US', 'SS', 'CW']));
    for (const gone of ['DD', 'UK', 'SU', 'YU', 'CS', 'AN', 'EU', 'UN', 'XK', 'ZZ']) expect(codes).not.toContain(gone);
  });

  it('offers Germany (DE) first for "Germ", as the picker filters labels in order', () => {
    const matches = options.filter((o) => o.label.toLowerCase().includes('germ'));
    expect(matches[0]).toEqual({ value: 'DE', label: 'Germany (DE)' });
    expect(matches).toHaveLength(1);
  });
});
