/**
 * The header that names the organization a request acts in, for a browser session or a personal key
 * (README, "Workspaces"): `X-Roster-Organization: <organization id>`. The person's current role there
 * decides, checked on every request; without it they act in their personal workspace. The dashboard sends
 * it on every page under `/o/<id>/`. Its own file: the dashboard's first screen needs it without any schema.
 */
export const ORGANIZATION_HEADER = 'X-Roster-Organization';
