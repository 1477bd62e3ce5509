import { Group, Select, Text, type SelectProps } from '@mantine/core';
import { useMemo } from 'react';
import { COUNTRY_CODES, countryNamer } from '../../shared/countries.ts';

/** The flag emoji of a two-letter code (regional indicator symbols); systems without flag glyphs show the letters. */
export function flagOf(code: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return '';
  return String.fromCodePoint(...[...code].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

let flagsDrawn: boolean | null = null;
/**
 * Whether this system draws flag emoji (Windows and many Linux desktops show two boxed letters, which
 * would only repeat the code): a flag drawn on a canvas has coloured pixels, a fallback does not.
 */
export function canShowFlags(): boolean {
  if (flagsDrawn !== null) return flagsDrawn;
  flagsDrawn = false;
  try {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 24;
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    if (!ctx) return false;
    ctx.font = '18px sans-serif';
    ctx.textBaseline = 'top';
    ctx.fillStyle = '#000';
    ctx.fillText(flagOf('DE'), 0, 0);
    const data = ctx.getImageData(0, 0, 24, 24).data;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3]! > 0 && (Math.abs(data[i]! - data[i + 1]!) > 30 || Math.abs(data[i + 1]! - data[i + 2]!) > 30)) {
        flagsDrawn = true;
        break;
      }
    }
  } catch {
    // No canvas (tests, locked-down browsers): codes only.
  }
  return flagsDrawn;
}

/** The browser's language; none where there is no browser (the server's first screen of a page: Node 20 has no `navigator`). */
const browserLanguage = () => (typeof navigator === 'undefined' ? 'en' : navigator.language || 'en');

/** Every assigned ISO 3166-1 alpha-2 code, named in the browser's language, sorted by name. */
export function countryOptions(locales: string[] = [browserLanguage(), 'en']): { value: string; label: string }[] {
  const name = countryNamer(locales);
  return COUNTRY_CODES.map((code) => ({ value: code, label: `${name(code)} (${code})` })).sort((x, y) => x.label.localeCompare(y.label));
}

/**
 * A searchable country picker by name and code (with its flag where the system draws flags), holding
 * the ISO code the API expects. The flag is decoration: the option's accessible name stays "Germany (DE)".
 */
export function CountrySelect(props: Omit<SelectProps, 'data'>) {
  const data = useMemo(() => countryOptions(), []);
  const flags = useMemo(() => canShowFlags(), []);
  if (!flags)
    return (
      <Select searchable nothingFoundMessage="No country matches" maxDropdownHeight={280} clearButtonProps={{ 'aria-label': 'Clear country' }} {...props} data={data} />
    );
  return (
    <Select
      searchable
      nothingFoundMessage="No country matches"
      maxDropdownHeight={280}
      clearButtonProps={{ 'aria-label': 'Clear country' }}
      renderOption={({ option }) => (
        <Group gap="xs" wrap="nowrap">
          <span aria-hidden>{flagOf(option.value)}</span>
          <Text size="sm">{option.label}</Text>
        </Group>
      )}
      leftSection={props.value ? <span aria-hidden>{flagOf(props.value)}</span> : undefined}
      {...props}
      data={data}
    />
  );
}
