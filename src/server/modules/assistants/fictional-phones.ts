// Phone numbers for assistants, from the ranges regulators reserve for fiction so that no real person is
// ever called. Where Roster knows such a range for the assistant's country, its number is from that
// country; elsewhere it is a fictional US number (the hire form says so).
import type { FICTIONAL_PHONE_COUNTRIES } from '../../../shared/assistants.ts';

/** NANP (US, Canada): 555-0100 to 555-0199 is fictional in every area code. */
const nanp = (areaCodes: readonly number[]) => (n: number) => {
  const area = areaCodes[Math.floor(n / 100) % areaCodes.length]!;
  return `+1${area}55501${String(n % 100).padStart(2, '0')}`;
};

/** US area codes 201…999 without the N11 service codes (211, 311, …), which are not area codes. */
const US_AREAS = Array.from({ length: 799 }, (_, i) => 201 + i).filter((code) => code % 100 !== 11);

/** Canada's largest area codes. */
const CA_AREAS = [416, 514, 604, 403, 613, 780, 647, 438, 778, 587, 905, 519, 450, 418, 902, 204, 306, 506, 709, 250, 705, 819, 289, 343];

/**
 * Ofcom's drama numbers, blocks of 1 000: mobile 07700 900xxx first (an assistant texts), then London
 * 020 7946 0xxx and the big cities' 01xx 496 0xxx.
 */
const GB_BLOCKS = ['+447700900', '+442079460', '+441134960', '+441214960', '+441314960', '+441414960', '+441514960', '+441614960', '+441174960'];
const gb = (n: number) => `${GB_BLOCKS[Math.floor(n / 1000) % GB_BLOCKS.length]}${String(n % 1000).padStart(3, '0')}`;

const BY_COUNTRY: Record<(typeof FICTIONAL_PHONE_COUNTRIES)[number], (n: number) => string> = { US: nanp(US_AREAS), CA: nanp(CA_AREAS), GB: gb };
const known = (country: string | null): country is keyof typeof BY_COUNTRY => country !== null && Object.hasOwn(BY_COUNTRY, country);

/** A fictional number for the assistant with this id, in `country` where a range is known: unique per id within a range's size. */
export function fictionalPhone(id: number, country: string | null): { phone: string; phone_country: string } {
  const code = known(country) ? country : 'US';
  return { phone: BY_COUNTRY[code](id - 1), phone_country: code };
}
