import { describe, expect, it } from 'vitest';
import { fictionalPhone } from './fictional-phones.ts';

describe('fictional phone numbers', () => {
  it('are distinct across a whole range and stay in the reserved blocks', () => {
    const gb = Array.from({ length: 9000 }, (_, i) => fictionalPhone(i + 1, 'GB').phone);
    expect(new Set(gb).size).toBe(9000);
    for (const phone of gb) expect(phone).toMatch(/^\+44(7700900|2079460|1[1-6][1-7]4960)\d{3}$/);
    const us = Array.from({ length: 20_000 }, (_, i) => fictionalPhone(i + 1, 'US').phone);
    expect(new Set(us).size).toBe(20_000);
    for (const phone of us) expect(phone).toMatch(/^\+1[2-9](?!11)\d\d55501\d\d$/);
  });

  it('fall back to the US for a country without a known range, and say so', () => {
    expect(fictionalPhone(1, 'DE')).toEqual({ phone: '+120155501' + '00', phone_country: 'US' });
    expect(fictionalPhone(1, null).phone_country).toBe('US');
    expect(fictionalPhone(1, 'toString').phone_country).toBe('US');
  });
});
