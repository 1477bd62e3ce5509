import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { directReadOf, openDatabase, type DbHandle } from './connection.ts';
import { GROUP_COMMIT_MAX } from './group-commit.ts';

let handle: DbHandle;
let other: SQLite.Database;
let file: string;

beforeEach(async () => {
  file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'roster-group-')), 'roster.db');
  handle = await openDatabase(`sqlite:${file}`);
  await sql`create table t (v integer primary key)`.execute(handle.db);
  await sql`create table parent (id integer primary key)`.execute(handle.db);
  await sql`create table child (parent_id integer references parent (id) deferrable initially deferred)`.execute(handle.db);
  // Another connection on the file: it sees only what has committed.
  other = new SQLite(file);
});

afterEach(async () => {
  other.close();
  await handle.close();
});

const committed = () => (other.prepare('select v from t order by v').all() as { v: number }[]).map((r) => r.v);
/**
 * The commits in the write-ahead log: each commit's last frame names the database's size in pages, the others
 * leave it 0 (sqlite.org/fileformat.html, "WAL File Format"). Frames left from before the log was restarted
 * carry other salts and are not counted.
 */
function commits(): number {
  const wal = fs.readFileSync(`${file}-wal`);
  const pageSize = wal.readUInt32BE(8);
  let n = 0;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    if (wal.readUInt32BE(at + 8) !== wal.readUInt32BE(16) || wal.readUInt32BE(at + 12) !== wal.readUInt32BE(20)) break;
    if (wal.readUInt32BE(at + 4) !== 0) n++;
  }
  return n;
}
const insert = (v: number) =>
  handle.db.transaction().execute(async (tx) => {
    await sql`insert into t (v) values (${v})`.execute(tx);
    return v;
  });

describe('SQLite group commit', () => {
  it('commits transactions that arrive together once, and answers each only after that commit', async () => {
    const before = commits();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        insert(i).then((v) => {
          // Answered: visible to another connection, so committed.
          expect(committed()).toContain(v);
          return v;
        }),
      ),
    );
    expect(answers).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(commits() - before).toBe(1);
  });

  it('rolls back only the transaction that failed: its own error, nothing of it kept, the others committed', async () => {
    const results = await Promise.allSettled([
      insert(1),
      handle.db.transaction().execute(async (tx) => {
        await sql`insert into t (v) values (2)`.execute(tx);
        await sql`insert into t (v) values (1)`.execute(tx); // taken by the first
      }),
      insert(3),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE constraint failed/);
    expect(committed()).toEqual([1, 3]);
  });

  it('rejects every transaction of a group whose commit fails, and keeps none of them', async () => {
    // A deferred foreign key is checked at COMMIT: the second transaction's orphan fails the group's commit.
    const results = await Promise.allSettled([
      insert(1),
      handle.db.transaction().execute(async (tx) => {
        await sql`insert into child (parent_id) values (42)`.execute(tx);
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY constraint failed/);
    expect(committed()).toEqual([]);
    // The connection is usable again, and alone a transaction commits.
    await insert(4);
    expect(committed()).toEqual([4]);
  });

  it('fails the waiting transactions, as each would have alone, when another process keeps the write lock', async () => {
    await sql`pragma busy_timeout = 50`.execute(handle.db);
    other.exec('begin immediate');
    const results = await Promise.allSettled([insert(1), insert(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/database is locked/);
    other.exec('commit');
    await insert(3);
    expect(committed()).toEqual([3]);
  });

  it('lets no read outside a transaction see a group before it commits', async () => {
    let direct: unknown[] | null | undefined;
    let read: Promise<number> | undefined;
    await handle.db.transaction().execute(async (tx) => {
      await sql`insert into t (v) values (1)`.execute(tx);
      // Runs while the group waits a turn of the event loop for more transactions, its row not committed.
      setImmediate(() => {
        direct = directReadOf(handle.db)?.('select count(*) as n from t', []);
        read = sql<{ n: number }>`select count(*) as n from t`.execute(handle.db).then((r) => {
          expect(committed()).toEqual([1]);
          return r.rows[0]!.n;
        });
      });
    });
    // The direct path declines (it would have counted the uncommitted row); the read queued, answered after the commit.
    expect(direct).toBeNull();
    expect(await read).toBe(1);
  });

  it(`carries at most ${GROUP_COMMIT_MAX} transactions a commit`, async () => {
    const before = commits();
    await Promise.all(Array.from({ length: GROUP_COMMIT_MAX * 2 + 1 }, (_, i) => insert(i)));
    expect(committed()).toHaveLength(GROUP_COMMIT_MAX * 2 + 1);
    expect(commits() - before).toBe(3);
  });
});
