import { Migrator } from 'kysely';
import type { DbHandle } from './connection.ts';
import { allMigrations } from './migrations/index.ts';

export async function migrateToLatest({ db, dialect }: DbHandle): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => allMigrations(dialect) },
    // Features land their dated migrations in any order; a data directory that already ran a later
    // one must still take an earlier one that arrived after it (each migration stands alone).
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`);
  }
}
