import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/** The file of a `sqlite:` DATABASE_URL, or null for PostgreSQL (which pg_dump/pg_restore serve). */
export function sqliteFileOf(databaseUrl: string): string | null {
  if (!databaseUrl.startsWith('sqlite:')) return null;
  const file = databaseUrl.slice('sqlite:'.length);
  return file === ':memory:' ? null : path.resolve(file);
}

/** Opens a file read-only and checks it is a Roster database that SQLite finds intact. */
function checkDatabase(file: string): { migrations: number } {
  let db: SQLite.Database;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new Error(`${file} cannot be opened as a SQLite database: ${(error as Error).message}`);
  }
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new Error(`${file} failed PRAGMA integrity_check: ${String(integrity)}`);
    const table = db.prepare("select name from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
    if (!table) throw new Error(`${file} is not a Roster database (no migration table).`);
    const { n } = db.prepare('select count(*) as n from kysely_migration').get() as { n: number };
    return { migrations: n };
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_NOTADB') throw new Error(`${file} is not a SQLite database.`);
    throw error;
  } finally {
    db.close();
  }
}

/**
 * Online backup: SQLite's backup API copies a consistent snapshot page by page while the server keeps
 * serving (readers and writers are not blocked for the whole copy). The copy is checked before it counts.
 */
export async function backupSqlite(databaseFile: string, to: string): Promise<{ file: string; bytes: number; migrations: number }> {
  if (!fs.existsSync(databaseFile)) throw new Error(`No database at ${databaseFile}.`);
  const target = path.resolve(to);
  if (target === databaseFile) throw new Error('--to must not be the live database file.');
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  const source = new SQLite(databaseFile, { fileMustExist: true });
  try {
    await source.backup(partial);
  } finally {
    source.close();
  }
  const { migrations } = checkDatabase(partial);
  fs.renameSync(partial, target);
  return { file: target, bytes: fs.statSync(target).size, migrations };
}

/**
 * Replaces the database with a backup. The server must be stopped: the backup is checked, copied next
 * to the database and renamed over it in one step, and the old write-ahead log is removed so none of
 * its pages are replayed onto the restored file.
 */
export function restoreSqlite(from: string, databaseFile: string): { file: string; migrations: number } {
  const source = path.resolve(from);
  if (source === databaseFile) throw new Error('--from must not be the live database file.');
  const { migrations } = checkDatabase(source);
  if (fs.existsSync(databaseFile)) assertNotInUse(databaseFile);
  fs.mkdirSync(path.dirname(databaseFile), { recursive: true });
  const staged = `${databaseFile}.restoring`;
  fs.copyFileSync(source, staged);
  for (const suffix of ['-wal', '-shm']) fs.rmSync(`${databaseFile}${suffix}`, { force: true });
  fs.renameSync(staged, databaseFile);
  return { file: databaseFile, migrations };
}

/**
 * Refuses while another process (a running server) has the database open: taking SQLite's exclusive
 * lock fails at once then, instead of the restore pulling the file from under it.
 */
function assertNotInUse(databaseFile: string): void {
  const db = new SQLite(databaseFile, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE; COMMIT;');
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
      throw new Error(`${databaseFile} is in use: stop the server before restoring.`);
    }
    throw error;
  } finally {
    db.close();
  }
}
