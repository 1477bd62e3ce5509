import type { Migration } from 'kysely';
import type { Dialect } from '../connection.ts';
import { coreMigration } from './2026-11-22-01-core.ts';
import { assistantsMigration } from './2026-11-22-02-assistants.ts';
import { projectsMigration } from './2026-11-22-03-projects.ts';
import { organizationsMigration } from './2026-11-22-04-organizations.ts';
import { accountMigration } from './2026-11-22-05-account.ts';
import { tilesMigration } from './2026-11-22-06-tiles.ts';
import { rateLimitsMigration } from './2026-11-22-07-rate-limits.ts';
import { idempotencyMigration } from './2026-11-22-08-idempotency.ts';
import { creatorsSetNullMigration } from './2026-11-24-01-creators-set-null.ts';
import { instanceAdminsMigration } from './2026-11-25-01-instance-admins.ts';
import { sessionsMigration } from './2026-11-25-02-sessions.ts';
import { logFieldsMigration } from './2026-11-25-03-log-fields.ts';
import { apiKeyNamesMigration } from './2026-11-25-04-api-key-names.ts';
import { authNotifyMigration } from './2026-11-25-10-auth-notify.ts';
import { instanceAdministrationMigration } from './2026-11-26-02-instance-administration.ts';
import { auditEventsMigration } from './2026-11-26-03-audit-events.ts';
import { contextForeignKeysMigration } from './2026-11-27-01-context-foreign-keys.ts';
import { projectCommitsMigration } from './2026-11-27-02-project-commits.ts';
import { derivedFieldsAndLeasesMigration } from './2026-11-27-03-derived-fields-and-leases.ts';
import { creditSpendMigration } from './2026-11-27-04-credit-spend.ts';
import { tileFiltersMigration } from './2026-11-27-05-tile-filters.ts';
import { nonemptyLogsIndexMigration } from './2026-11-27-06-nonempty-logs-index.ts';
import { logMembershipsMigration } from './2026-11-28-01-log-memberships.ts';
import { logsJsonbMigration } from './2026-11-28-02-logs-jsonb.ts';
import { logsNotifyMigration } from './2026-11-28-03-logs-notify.ts';
import { projectsOrderIndexMigration } from './2026-11-28-04-projects-order-index.ts';
import { mailOutboxReferenceMigration } from './2026-11-30-01-mail-outbox-reference.ts';
import { logsJsonbSqliteMigration } from './2026-11-29-01-logs-jsonb-sqlite.ts';
import { cacheNotifyMigration } from './2026-12-01-01-cache-notify.ts';
import { derivedFieldsNotifyMigration } from './2026-12-02-01-derived-fields-notify.ts';

/** Every migration in order. Names are dates: append new ones, never edit or reorder landed ones. */
export function allMigrations(dialect: Dialect): Record<string, Migration> {
  return {
    '2026-11-22-01-core': coreMigration(dialect),
    '2026-11-22-02-assistants': assistantsMigration(dialect),
    '2026-11-22-03-projects': projectsMigration(dialect),
    '2026-11-22-04-organizations': organizationsMigration(dialect),
    '2026-11-22-05-account': accountMigration(dialect),
    '2026-11-22-06-tiles': tilesMigration(dialect),
    '2026-11-22-07-rate-limits': rateLimitsMigration,
    '2026-11-22-08-idempotency': idempotencyMigration,
    '2026-11-24-01-creators-set-null': creatorsSetNullMigration(dialect),
    '2026-11-25-01-instance-admins': instanceAdminsMigration,
    '2026-11-25-02-sessions': sessionsMigration,
    '2026-11-25-03-log-fields': logFieldsMigration(dialect),
    '2026-11-25-04-api-key-names': apiKeyNamesMigration,
    '2026-11-25-10-auth-notify': authNotifyMigration(dialect),
    '2026-11-26-02-instance-administration': instanceAdministrationMigration(dialect),
    '2026-11-26-03-audit-events': auditEventsMigration(dialect),
    '2026-11-27-01-context-foreign-keys': contextForeignKeysMigration,
    '2026-11-27-02-project-commits': projectCommitsMigration(dialect),
    '2026-11-27-03-derived-fields-and-leases': derivedFieldsAndLeasesMigration(dialect),
    '2026-11-27-04-credit-spend': creditSpendMigration(dialect),
    '2026-11-27-05-tile-filters': tileFiltersMigration,
    '2026-11-27-06-nonempty-logs-index': nonemptyLogsIndexMigration,
    '2026-11-28-01-log-memberships': logMembershipsMigration,
    '2026-11-28-02-logs-jsonb': logsJsonbMigration(dialect),
    '2026-11-28-03-logs-notify': logsNotifyMigration(dialect),
    '2026-11-28-04-projects-order-index': projectsOrderIndexMigration,
    '2026-11-29-01-logs-jsonb-sqlite': logsJsonbSqliteMigration(dialect),
    '2026-11-30-01-mail-outbox-reference': mailOutboxReferenceMigration,
    '2026-12-01-01-cache-notify': cacheNotifyMigration(dialect),
    '2026-12-02-01-derived-fields-notify': derivedFieldsNotifyMigration(dialect),
  };
}
