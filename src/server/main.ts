/**
 * The Roster CLI: `serve` opens the port; the other commands act on the same database and print JSON
 * (scripts and operators parse it). Usage: `npm run roster -- <command> [--flag value]…`. `runCli` takes its
 * arguments, environment and output streams as parameters so tests drive it in-process; bin.ts runs it.
 */
import { inspect, parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { loadConfig, type Config } from './config.ts';
import { createAccount } from './modules/account/service.ts';
import { findUserByEmail, grantAdmin, revokeAllKeys, rotatePersonalKey } from './modules/users/repository.ts';
import { splitName } from './modules/users/person-name.ts';
import { createOrganization } from './modules/organizations/service.ts';
import { accountOf, addCredits, toMicros } from './modules/credits/repository.ts';
import { grantCredits } from './modules/admin/service.ts';
import { email as emailSchema } from '../shared/common.ts';
import { backupSqlite, restoreSqlite, sqliteFileOf } from './db/backup.ts';
import { operatorSignInLink } from './modules/sessions/service.ts';
import { SIGN_IN_LINK_MINUTES } from '../shared/sessions.ts';

const USAGE = `Usage: npm run roster -- <command>
  serve                                             run the API and dashboard (what npm start runs)
  user create --email E [--name N] [--credits C]    → {"user_id","email","api_key"}
  org create --owner-email E --name N               → {"organization_id","name","api_key"} (owner's org key)
  credits add --email E --amount N [--reason R]     → {"user_id","email","credits"} (recorded as a grant by "cli")
  credits add --org-id ID --amount N [--reason R]   → {"organization_id","name","credits"}
  key rotate --email E                              → {"user_id","email","api_key","organization_keys_still_valid"} (old personal key revoked)
  key revoke-all --email E                          → {"user_id","email","api_key","revoked_keys"} (every key revoked, a new personal one)
  admin grant --email E                             → {"user_id","email","is_admin"} (may create accounts for others)
  login-link --email E                              → {"user_id","email","link","expires_at"} (one-time dashboard sign-in, 15 minutes)
  backup --to FILE                                  online copy of the SQLite database → {"file","bytes","migrations"}
  restore --from FILE                               replace the SQLite database with a backup (server stopped)`;

class UsageError extends Error {}

/** Where the CLI reads its configuration and writes its answers (the process's own, in bin.ts). */
export interface CliIo {
  env: Record<string, string | undefined>;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

const DEMO_EMAIL = 'demo@roster.local';

function required(values: Record<string, string | undefined>, name: string): string {
  const value = values[name]?.trim();
  if (!value) throw new UsageError(`--${name} is required.`);
  return value;
}

function parseEmail(raw: string): string {
  const parsed = emailSchema().safeParse(raw);
  if (!parsed.success) throw new UsageError(`--email: "${raw}" is not a valid e-mail address.`);
  return parsed.data;
}

function parseAmount(raw: string | undefined, flag: string): number {
  const n = Number(raw);
  if (raw === undefined || raw.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${flag} must be a number.`);
  return n;
}

async function withApp<T>(config: Config, run: (app: FastifyInstance) => Promise<T>): Promise<T> {
  const app = await buildApp({ ...config, webDir: null, logLevel: 'silent' });
  try {
    return await run(app);
  } finally {
    await app.close();
  }
}

async function userByEmail(app: FastifyInstance, email: string) {
  const user = await findUserByEmail(app.deps.db, email);
  if (!user) throw new UsageError(`No user with e-mail ${email}.`);
  return user;
}

/** `--amount -5` as `--amount=-5`: parseArgs would read a value starting with a dash as another option. */
function withNegativeValues(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const next = args[i + 1];
    if (args[i].startsWith('--') && !args[i].includes('=') && next !== undefined && /^-\d/.test(next)) {
      out.push(`${args[i]}=${next}`);
      i += 1;
    } else out.push(args[i]);
  }
  return out;
}

async function runCommand(argv: string[], config: Config): Promise<unknown> {
  const [group] = argv;
  if (group === 'backup' || group === 'restore') return runBackupCommand(group, argv.slice(1), config);
  // `login-link` is one word; the other commands are a group and an action.
  const single = group === 'login-link';
  const action = single ? undefined : argv[1];
  const rest = argv.slice(single ? 1 : 2);
  const { values } = parseArgs({
    args: withNegativeValues(rest),
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      credits: { type: 'string' },
      'owner-email': { type: 'string' },
      'org-id': { type: 'string' },
      amount: { type: 'string' },
      reason: { type: 'string' },
    },
    strict: true,
  });
  const command = `${group ?? ''} ${action ?? ''}`.trim();
  return withApp(config, async (app) => {
    const { db, now } = app.deps;
    switch (command) {
      case 'user create': {
        const email = parseEmail(required(values, 'email'));
        if (await findUserByEmail(db, email)) throw new UsageError(`A user with e-mail ${email} already exists.`);
        const credits = values.credits === undefined ? config.signupCredits : parseAmount(values.credits, 'credits');
        if (credits < 0) throw new UsageError('--credits must be 0 or more.');
        const { userId, apiKey } = await createAccount(db, { email, ...splitName(values.name), creditsMicros: toMicros(credits) }, now());
        return { user_id: userId, email, api_key: apiKey };
      }
      case 'org create': {
        const owner = await userByEmail(app, parseEmail(required(values, 'owner-email')));
        const name = required(values, 'name');
        if (name.length > 100) throw new UsageError('--name must be at most 100 characters.');
        const { organizationId, apiKey } = await createOrganization(db, owner.id, name, now());
        return { organization_id: organizationId, name, api_key: apiKey };
      }
      case 'credits add': {
        const amount = parseAmount(values.amount, 'amount');
        if (amount <= 0) throw new UsageError('--amount must be more than 0 (credits can only be added).');
        if (amount > 1_000_000_000) throw new UsageError('--amount must be at most 1000000000.');
        const reason = (values.reason ?? 'Added with the CLI (credits add)').trim();
        if (!reason || reason.length > 500) throw new UsageError('--reason must be 1 to 500 characters.');
        // Recorded as a grant by "cli", listed with the administrators' grants in the dashboard.
        const cli = { label: 'cli', userId: null };
        if (values['org-id'] !== undefined) {
          if (values.email !== undefined) throw new UsageError('Give --email or --org-id, not both.');
          const id = Number(values['org-id']);
          if (!/^\d{1,10}$/.test(values['org-id']) || id < 1) throw new UsageError('--org-id must be an organization id (a positive integer).');
          const org = await db.selectFrom('organizations').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
          if (!org) throw new UsageError(`No organization with id ${id}.`);
          const grant = await grantCredits(db, cli, { organizationId: org.id }, amount, reason, now());
          return { organization_id: org.id, name: org.name, credits: grant.balance_after };
        }
        const user = await userByEmail(app, parseEmail(required(values, 'email')));
        const grant = await grantCredits(db, cli, { userId: user.id }, amount, reason, now());
        return { user_id: user.id, email: user.email, credits: grant.balance_after };
      }
      case 'key rotate': {
        const user = await userByEmail(app, parseEmail(required(values, 'email')));
        const { apiKey, organizationKeysStillValid } = await rotatePersonalKey(db, user.id, now());
        // Rotating answers a leaked personal key only: say what it leaves working.
        return { user_id: user.id, email: user.email, api_key: apiKey, organization_keys_still_valid: organizationKeysStillValid };
      }
      case 'key revoke-all': {
        const user = await userByEmail(app, parseEmail(required(values, 'email')));
        const { apiKey, revoked } = await revokeAllKeys(db, user.id, now());
        return { user_id: user.id, email: user.email, api_key: apiKey, revoked_keys: revoked };
      }
      case 'login-link': {
        const user = await userByEmail(app, parseEmail(required(values, 'email')));
        if (user.disabled_at) throw new UsageError(`The account of ${user.email} is disabled; enable it in the dashboard's Admin area first.`);
        const { link, expiresAt } = await operatorSignInLink(app.deps, user.email!);
        return { user_id: user.id, email: user.email, link, expires_at: expiresAt.toISOString() };
      }
      case 'admin grant': {
        const user = await userByEmail(app, parseEmail(required(values, 'email')));
        await grantAdmin(db, user.id);
        return { user_id: user.id, email: user.email, is_admin: true };
      }
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  });
}

/** Backup and restore act on the database file itself, without opening the app. */
async function runBackupCommand(group: 'backup' | 'restore', args: string[], config: Config): Promise<unknown> {
  const { values } = parseArgs({
    args,
    options: { to: { type: 'string' }, from: { type: 'string' } },
    strict: true,
  });
  const file = sqliteFileOf(config.databaseUrl);
  if (!file) {
    throw new UsageError(
      group === 'backup'
        ? 'backup copies the SQLite database; for PostgreSQL run: pg_dump --format=custom --file=FILE "$DATABASE_URL"'
        : 'restore replaces the SQLite database; for PostgreSQL run: pg_restore --clean --dbname="$DATABASE_URL" FILE',
    );
  }
  try {
    if (group === 'backup') return await backupSqlite(file, required(values, 'to'));
    return restoreSqlite(required(values, 'from'), file);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError((error as Error).message);
  }
}

/** First start on an empty database: a demo owner with credits and a demo organization; returns their personal key. */
async function seedDemo(app: FastifyInstance): Promise<string | null> {
  const { db, now } = app.deps;
  const anyUser = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (anyUser) return null;
  const { userId, apiKey } = await createAccount(db, { email: DEMO_EMAIL, firstName: 'Demo', lastName: 'Owner', creditsMicros: toMicros(500) }, now());
  const { organizationId } = await createOrganization(db, userId, 'Demo Organization', now());
  // The demo organization can hire too (organizations pay for their own assistants).
  const orgAccount = await accountOf(db, { userId, organizationId });
  await addCredits(db, orgAccount.id, toMicros(200), 'signup', 'demo', now());
  return apiKey;
}

/**
 * V8 allocates objects of an allocation site straight into the old generation once most of them survived a
 * young-generation collection. Under a burst of concurrent requests (every open request's objects alive at
 * that moment) it can take that decision for a site the server allocates per request; from then on every
 * request leaves garbage in the old generation and keeps its young objects alive through it: the process
 * spends 10-15% of its time in the collector instead of ~3%, and serves 25-45% fewer requests until it
 * restarts (one start in three or so under `wrk -c50`, seen with --trace-pretenuring-statistics and
 * --trace-gc). A server's objects live for one request or for its whole life: nothing gains from the guess.
 * Set before any request (V8 reads the flag at each collection).
 */
function keepRequestObjectsYoung(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}

async function serve(config: Config, io: CliIo): Promise<void> {
  keepRequestObjectsYoung();
  const app = await buildApp(config);
  const demoKey = config.seedDemo ? await seedDemo(app) : null;
  let closing = false;
  app.addHook('onRequest', (_req, reply, done) => {
    if (!closing) return done();
    reply.code(503).headers({ connection: 'close', 'retry-after': '5' }).send({ detail: 'The server is shutting down; retry shortly.' });
  });
  await app.listen({ port: config.port, host: config.host });
  const base = config.publicUrl;
  if (demoKey) {
    // A person signs in by the link (a session: no key in the browser); scripts get the key, labelled as theirs.
    const { link } = await operatorSignInLink(app.deps, DEMO_EMAIL);
    io.stdout.write(
      `\nRoster is running. Sign in as the demo owner (${DEMO_EMAIL}) with this link (it works once, within ${SIGN_IN_LINK_MINUTES} minutes):\n\n  ${link}\n\n` +
        `For scripts, the demo owner's personal API key (shown once): ${demoKey}\n` +
        `A new sign-in link: npm run roster -- login-link --email ${DEMO_EMAIL}\n\n`,
    );
  } else {
    io.stdout.write(`\nRoster is running at ${base}  (API reference: ${base}/docs)\nA sign-in link for an account: npm run roster -- login-link --email E\n\n`);
  }
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Drain: requests already in a handler finish; everything that arrives from now on (including
    // connections still queued in the kernel's backlog, which closing the port would reset) is accepted
    // and answered 503 + Connection: close. The port closes once connections stop arriving.
    let lastConnection = Date.now();
    app.server.on('connection', () => (lastConnection = Date.now()));
    const drainStarted = Date.now();
    while (Date.now() - lastConnection < 300 && Date.now() - drainStarted < 5000) await new Promise((r) => setTimeout(r, 50));
    setTimeout(() => app.server.closeIdleConnections(), 1000).unref();
    setTimeout(() => app.server.closeAllConnections(), 10_000).unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

/**
 * Runs one CLI command and resolves with its exit code: 0 done, 1 failed, 2 usage error. `serve` resolves
 * with -1 once the port is open: the server then runs until SIGINT or SIGTERM, and exits by itself.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv.includes('--help')) {
    io.stdout.write(`${USAGE}\n`);
    return argv.length === 0 ? 1 : 0;
  }
  try {
    const config = loadConfig(io.env);
    if (argv[0] === 'serve') {
      await serve(config, io);
      return -1;
    }
    io.stdout.write(`${JSON.stringify(await runCommand(argv, config))}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      const message = (error as Error).message;
      const lost = !(error instanceof UsageError) || message.startsWith('Unknown command');
      io.stderr.write(`error: ${message}${lost ? `\n\n${USAGE}` : ''}\n`);
      return 2;
    }
    io.stderr.write(`${inspect(error)}\n`);
    return 1;
  }
}
