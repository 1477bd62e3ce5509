import { Select, type SelectProps } from '@mantine/core';
import { useMemo } from 'react';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Every ISO 3166-1 alpha-2 code this browser has a name for, sorted by name. */
function countryOptions(): { value: string; label: string }[] {
  const names = new Intl.DisplayNames([navigator.language || 'en', 'en'], { type: 'region' });
  const english = new Intl.DisplayNames(['en'], { type: 'region' });
  const options: { value: string; label: string }[] = [];
  for (const a of LETTERS)
    for (const b of LETTERS) {
      const code = a + b;
      const known = english.of(code);
      if (!known || known === code || known === 'Unknown Region') continue;
      options.push({ value: code, label: `${names.of(code)} (${code})` });
    }
  return options.sort((x, y) => x.label.localeCompare(y.label));
}

/** A searchable country picker by name, holding the ISO code the API expects. */
export function CountrySelect(props: Omit<SelectProps, 'data'>) {
  const data = useMemo(countryOptions, []);
  return <Select searchable nothingFoundMessage="No country matches" maxDropdownHeight={280} {...props} data={data} />;
}
