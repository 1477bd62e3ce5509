import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from './connection.ts';

let handle: DbHandle | null = null;
afterEach(async () => {
  await handle?.close();
  handle = null;
});

describe('SQLite transactions', () => {
  it('take the write lock when they begin: a read-then-write transaction survives another process writing meanwhile', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'roster-db-')), 'roster.db');
    handle = await openDatabase(`sqlite:${file}`);
    await sql`create table t (v integer)`.execute(handle.db);
    // Another process on the same file (the CLI, a second server), impatient so the test stays quick.
    const other = new SQLite(file, { timeout: 50 });
    let otherWrote: boolean | null = null;

    await handle.db.transaction().execute(async (tx) => {
      await sql`select count(*) from t`.execute(tx);
      try {
        other.prepare('insert into t (v) values (2)').run();
        otherWrote = true;
      } catch {
        otherWrote = false;
      }
      // Begun deferred, this write failed at once with "database is locked": the other process had
      // committed after this transaction's read.
      await sql`insert into t (v) values (1)`.execute(tx);
    });

    expect(otherWrote).toBe(false);
    other.close();
    const rows = await sql<{ v: number }>`select v from t`.execute(handle.db);
    expect(rows.rows.map((r) => r.v)).toEqual([1]);
  });
});
