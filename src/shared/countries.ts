// The officially assigned ISO 3166-1 alpha-2 codes (249, as of the 2024 list). The runtime's
// Intl.DisplayNames names many more (withdrawn ones such as DD "East Germany" and UK, exceptional
// reservations such as EU and UN, CLDR's own such as XK), so the list decides and the runtime only names.

const ASSIGNED = `AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ
CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR
GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP
KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT
MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW
SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG
UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW`;

export const COUNTRY_CODES: readonly string[] = ASSIGNED.split(/\s+/);
const assigned = new Set(COUNTRY_CODES);

/** Whether `code` is a currently assigned ISO 3166-1 alpha-2 code (upper case). */
export const isCountryCode = (code: string): boolean => assigned.has(code);

/**
 * Names codes in the first of `locales` the runtime supports; a code the runtime cannot name stays a code.
 * The runtime's names are looked up at the first name asked for: a page that imports this module and names
 * no country does not load them (in Chromium, a page's first Intl object costs ~30 ms of locale data).
 */
export function countryNamer(locales: string[] = ['en']): (code: string) => string {
  let names: Intl.DisplayNames | undefined;
  return (code) => {
    try {
      names ??= new Intl.DisplayNames(locales, { type: 'region' });
      return names.of(code) ?? code;
    } catch {
      return code;
    }
  };
}

/** The English name of a country code. */
export const countryName = countryNamer();
