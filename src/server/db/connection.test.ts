import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { directReadOf, openDatabase, type DbHandle } from './connection.ts';
import { runPrepared } from './prepared.ts';

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

describe('prepared reads on SQLite', () => {
  it('run directly between transactions, and never see a transaction still open on the connection', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'roster-db-')), 'roster.db');
    handle = await openDatabase(`sqlite:${file}`);
    const db = handle.db;
    await sql`create table t (v integer)`.execute(db);
    const count = (conn: typeof db) => conn.selectFrom('t' as never).select(sql<number>`count(*)`.as('n'));
    expect(directReadOf(db)?.('select count(*) as n from t', [])).toEqual([{ n: 0 }]);

    // A read asked for while a transaction holds the connection waits for it to end: here it rolls back, so
    // the row it wrote was never there. Run beside it, the read would have counted it.
    let during: Promise<{ n: number }[]> | null = null;
    await expect(
      db.transaction().execute(async (tx) => {
        await sql`insert into t (v) values (1)`.execute(tx);
        expect(directReadOf(db)?.('select count(*) as n from t', [])).toBeNull();
        during = runPrepared(db, 'test-count', count, []);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await during!).toEqual([{ n: 0 }]);
    expect(await runPrepared(db, 'test-count', count, [])).toEqual([{ n: 0 }]);
  });
});

describe('prepared statements in a transaction', () => {
  it('are built once for the database and its transactions, and commit or roll back with the transaction', async () => {
    handle = await openDatabase('sqlite::memory:');
    const db = handle.db;
    await sql`create table t (v integer)`.execute(db);
    let builds = 0;
    const insert = (conn: typeof db) => {
      builds++;
      return conn.insertInto('t' as never).values({ v: 0 } as never);
    };
    const values = async () => (await sql<{ v: number }>`select v from t order by v`.execute(db)).rows.map((r) => r.v);

    await expect(
      db.transaction().execute(async (tx) => {
        await runPrepared(tx, 'test-insert', insert, [1]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await values()).toEqual([]);

    await db.transaction().execute((tx) => runPrepared(tx, 'test-insert', insert, [2]));
    await runPrepared(db, 'test-insert', insert, [3]);
    expect(await values()).toEqual([2, 3]);
    expect(builds).toBe(1);
  });
});
