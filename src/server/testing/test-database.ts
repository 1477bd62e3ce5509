import pg from 'pg';

/**
 * Where route tests keep their data. By default a fresh in-memory SQLite database per test; with
 * TEST_DATABASE_URL=postgres://… (npm run test:pg) a fresh PostgreSQL database per test, migrated by
 * buildApp like any other — the same tests, unchanged.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
let counter = 0;

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function freshTestDatabase(): Promise<TestDatabase> {
  if (!adminUrl) return { url: 'sqlite::memory:', drop: async () => {} };
  counter += 1;
  const name = `roster_t_${process.pid}_${counter}`;
  await admin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE template0`));
  return {
    url: withDatabase(adminUrl, name),
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
