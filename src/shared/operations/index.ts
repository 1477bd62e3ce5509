import type { AnyOperation } from '../operation.ts';
import * as account from './account.ts';
import * as admin from './admin.ts';
import * as assistants from './assistants.ts';
import * as audit from './audit.ts';
import * as contexts from './contexts.ts';
import * as credits from './credits.ts';
import * as customEndpoints from './custom-endpoints.ts';
import * as invites from './invites.ts';
import * as keys from './keys.ts';
import * as logs from './logs.ts';
import * as organizations from './organizations.ts';
import * as projects from './projects.ts';
import * as sessions from './sessions.ts';
import * as syncLease from './sync-lease.ts';
import * as system from './system.ts';
import * as tiles from './tiles.ts';
import * as users from './users.ts';
import * as voices from './voices.ts';

/** The operation modules by file name (the dashboard's build serves each as plain method + path: vite.config.ts). */
export const OPERATION_MODULES = {
  system,
  sessions,
  users,
  credits,
  projects,
  contexts,
  logs,
  'sync-lease': syncLease,
  tiles,
  organizations,
  invites,
  account,
  admin,
  keys,
  'custom-endpoints': customEndpoints,
  assistants,
  voices,
  audit,
} as const;

/**
 * Every operation of the API, one module per resource. The server must register a handler for each
 * (app.test.ts) and the OpenAPI document describes exactly these. The dashboard imports the modules
 * it needs directly, never this list (it would pull every schema into the first screen).
 */
export const OPERATIONS: readonly AnyOperation[] = Object.values(OPERATION_MODULES).flatMap((module) => Object.values(module) as AnyOperation[]);
