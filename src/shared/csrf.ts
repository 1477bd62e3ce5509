/**
 * The header the dashboard sends with every request signed in by session cookie. A cross-site page cannot
 * set it without a CORS preflight, which this API refuses (SECURITY.md, CSRF). Its own file: the
 * dashboard's first screen needs it without any schema.
 */
export const CSRF_HEADER = 'X-Roster-CSRF';
