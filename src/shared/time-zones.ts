// Time zones the API accepts: the IANA names of the runtime's list (Intl.supportedValuesOf) plus UTC. The
// runtime also accepts legacy abbreviations and links (`PST`, `EST`, `US/Pacific`) that the list leaves out;
// those are refused, since they read as fixed offsets or mean something else than they say (`EST` resolves
// to America/Panama).

/** Every IANA zone this runtime lists, with UTC first (some engines leave it out of the list). */
export function timeZoneNames(): string[] {
  const supported = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return supported.includes('UTC') ? supported : ['UTC', ...supported];
}

let known: Set<string> | null = null;

/** Continents and oceans of IANA zone names: a name under one of them is a real place's zone. */
const GEOGRAPHIC = /^(Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific)\/[A-Za-z0-9_+-]+(\/[A-Za-z0-9_+-]+)?$/;

/**
 * Whether `tz` is a zone name the API takes. Runtimes' lists trail IANA's renames by years (Node 20 lists
 * Asia/Calcutta and Europe/Kiev, a current browser Asia/Kolkata and Europe/Kyiv), so a geographic name
 * that this runtime resolves is taken too: the browser's pick must not be refused by the server.
 */
export function isTimeZone(tz: string): boolean {
  known ??= new Set(timeZoneNames());
  if (known.has(tz)) return true;
  if (!GEOGRAPHIC.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
