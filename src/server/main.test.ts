import { spawn } from 'node:child_process';
import Sqlite from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './main.ts';
import { ORGANIZATION_HEADER } from '../shared/workspace-header.ts';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'src/server/bin.ts');

function env(dataDir: string, extra: Record<string, string> = {}) {
  const { DATABASE_URL: _ignored, ...rest } = process.env;
  return { ...rest, ROSTER_DATA_DIR: dataDir, ROSTER_LOG_LEVEL: 'silent', ...extra };
}

/** Runs a CLI command in this process (runCli is what bin.ts runs), collecting what it prints. */
async function cliWith(environment: Record<string, string | undefined>, args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { env: environment, stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) } });
  return { code, stdout, stderr };
}

const cli = (dataDir: string, ...args: string[]) => cliWith(env(dataDir), args);

/** Starts `serve` as a real process (bin.ts), waits for its banner, and returns what it printed plus a stop function. */
async function serve(dataDir: string, port: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', bin, 'serve'], {
    cwd: root,
    env: env(dataDir, { PORT: String(port), ROSTER_WEB_DIR: 'none' }),
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 30_000);
    child.stdout.on('data', () => {
      if (out.includes('Roster is running')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  const stop = () =>
    new Promise<number | null>((resolve) => {
      child.on('exit', (code) => resolve(code));
      child.kill('SIGTERM');
    });
  return { output: () => out, stop };
}

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'roster-cli-'));

// Commands run in-process; the two tests that start `serve` spawn the real command (signals, exit codes,
// a database held open by another process).
describe('CLI', { timeout: 60_000 }, () => {
  it('creates users and organizations, adds credits and rotates keys, printing JSON', async () => {
    const dir = tmp();
    const created = await cli(dir, 'user', 'create', '--email', 'Ann@Example.com', '--name', 'Ann Lee', '--credits', '20');
    expect(created.code).toBe(0);
    const user = JSON.parse(created.stdout);
    expect(Object.keys(user).sort()).toEqual(['api_key', 'email', 'user_id']);
    expect(user.email).toBe('ann@example.com');
    expect(user.api_key).toMatch(/^rk_[\w-]{43}$/);

    const org = JSON.parse((await cli(dir, 'org', 'create', '--owner-email', 'ann@example.com', '--name', 'Acme')).stdout);
    expect(org).toEqual({ organization_id: expect.any(Number), name: 'Acme', api_key: expect.stringMatching(/^rko_/) });

    const credits = JSON.parse((await cli(dir, 'credits', 'add', '--email', 'ann@example.com', '--amount', '5.5')).stdout);
    expect(credits.credits).toBe(25.5);

    const orgCredits = await cli(dir, 'credits', 'add', '--org-id', String(org.organization_id), '--amount', '30');
    expect(JSON.parse(orgCredits.stdout)).toEqual({ organization_id: org.organization_id, name: 'Acme', credits: 30 });
    const reasoned = await cli(dir, 'credits', 'add', '--org-id', String(org.organization_id), '--amount', '2', '--reason', 'Launch week');
    expect(JSON.parse(reasoned.stdout).credits).toBe(32);
    // Each is recorded as a grant by "cli", as the Admin area lists grants.
    const file = new Sqlite(path.join(dir, 'roster.db'), { readonly: true });
    const grants = file.prepare('select granted_by, recipient, amount_micros, reason, balance_after_micros from credit_grants order by id').all();
    file.close();
    expect(grants).toEqual([
      { granted_by: 'cli', recipient: 'ann@example.com', amount_micros: 5_500_000, reason: 'Added with the CLI (credits add)', balance_after_micros: 25_500_000 },
      { granted_by: 'cli', recipient: 'Acme', amount_micros: 30_000_000, reason: 'Added with the CLI (credits add)', balance_after_micros: 30_000_000 },
      { granted_by: 'cli', recipient: 'Acme', amount_micros: 2_000_000, reason: 'Launch week', balance_after_micros: 32_000_000 },
    ]);
    const noOrg = await cli(dir, 'credits', 'add', '--org-id', '99999', '--amount', '1');
    expect(noOrg.code).toBe(2);
    expect(noOrg.stderr).toContain('No organization with id 99999');

    expect(JSON.parse((await cli(dir, 'admin', 'grant', '--email', 'ann@example.com')).stdout)).toMatchObject({ email: 'ann@example.com', is_admin: true });
    const rotated = JSON.parse((await cli(dir, 'key', 'rotate', '--email', 'ann@example.com')).stdout);
    expect(rotated.api_key).not.toBe(user.api_key);
    // Ann's owner key of Acme still works after a rotation, and the answer says so.
    expect(rotated.organization_keys_still_valid).toBe(1);
    const revoked = JSON.parse((await cli(dir, 'key', 'revoke-all', '--email', 'ann@example.com')).stdout);
    expect(revoked).toMatchObject({ email: 'ann@example.com', revoked_keys: 2 });
    expect(revoked.api_key).not.toBe(rotated.api_key);

    const duplicate = await cli(dir, 'user', 'create', '--email', 'ann@example.com');
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toContain('already exists');
    const bad = await cli(dir, 'credits', 'add', '--email', 'ann@example.com', '--amount', 'lots');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--amount must be a number');
    for (const amount of ['-5', '0', '-1e9']) {
      const negative = await cli(dir, 'credits', 'add', '--email', 'ann@example.com', '--amount', amount);
      expect(negative.code, amount).toBe(2);
      expect(negative.stderr.trim().split('\n'), amount).toEqual(['error: --amount must be more than 0 (credits can only be added).']);
    }
    const unknown = await cli(dir, 'user', 'explode');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Usage:');
  });

  it('prints its usage for help, and exits 1 without a command', async () => {
    const help = await cli(tmp(), '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: npm run roster');
    expect((await cli(tmp())).code).toBe(1);
  });

  it('seeds a demo owner and organization on the first start only, with a working sign-in link', async () => {
    const dir = tmp();
    const port = 30000 + Math.floor(Math.random() * 20000);
    const first = await serve(dir, port);
    const link = /(http:\/\/localhost:\d+)\/sign-in\/link#token=([\w-]+)/.exec(first.output());
    expect(link, first.output()).not.toBeNull();
    const api = `http://127.0.0.1:${port}`;
    // The link signs the demo owner in as the dashboard's sign-in page does: a session cookie, no key.
    const dashboard = { origin: link![1], 'x-roster-csrf': '1', 'content-type': 'application/json' };
    const signedIn = await fetch(`${api}/v0/sessions`, { method: 'POST', headers: dashboard, body: JSON.stringify({ token: link![2] }) });
    expect(signedIn.status).toBe(201);
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0];
    const res = await fetch(`${api}/v0/user/basic-info`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const me = (await res.json()) as { email: string; credits: number };
    expect(me.email).toBe('demo@roster.local');
    expect(me.credits).toBeGreaterThan(0);
    // The organization is the demo owner's, reached by the same session.
    const orgs = (await (await fetch(`${api}/v0/organizations`, { headers: { cookie } })).json()) as { organizations: { id: number; name: string; role_name: string }[] };
    expect(orgs.organizations).toEqual([expect.objectContaining({ name: 'Demo Organization', role_name: 'Owner' })]);
    // …and its workspace (the dashboard's `/o/<id>/`) opens by membership, with no organization key.
    const inOrg = await fetch(`${api}/v0/user/basic-info`, { headers: { cookie, [ORGANIZATION_HEADER]: String(orgs.organizations[0].id) } });
    expect(((await inOrg.json()) as { key: unknown }).key).toMatchObject({ kind: 'session', organization_name: 'Demo Organization', role_name: 'Owner' });
    // Scripts get the key, labelled as theirs.
    const key = /API key \(shown once\): (rk_[\w-]+)/.exec(first.output());
    expect((await fetch(`${api}/v0/user/basic-info`, { headers: { authorization: `Bearer ${key![1]}` } })).status).toBe(200);
    expect(await first.stop()).toBe(0);

    const second = await serve(dir, port);
    expect(second.output()).not.toMatch(/#token=|rk_/);
    expect(second.output()).toContain('npm run roster -- login-link --email');
    await second.stop();
    const rotated = JSON.parse((await cli(dir, 'key', 'rotate', '--email', 'demo@roster.local')).stdout);
    expect(rotated.api_key).toMatch(/^rk_/);
  });

  it('login-link prints a one-time sign-in link for an existing account, and refuses an unknown address', async () => {
    const dir = tmp();
    await cli(dir, 'user', 'create', '--email', 'ops@example.com');
    const made = await cli(dir, 'login-link', '--email', 'Ops@Example.com');
    expect(made.code, made.stderr).toBe(0);
    const answer = JSON.parse(made.stdout);
    expect(answer).toMatchObject({ email: 'ops@example.com', user_id: expect.any(String) });
    expect(answer.link).toMatch(/^http:\/\/localhost:8080\/sign-in\/link#token=[\w-]{43}$/);
    expect(new Date(answer.expires_at).getTime() - Date.now()).toBeGreaterThan(14 * 60_000);
    const unknown = await cli(dir, 'login-link', '--email', 'nobody@example.com');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No user with e-mail nobody@example.com');
    expect((await cli(dir, 'login-link')).stderr).toContain('--email is required');
  });

  it('backs up a running server online and restores the snapshot once it is stopped', async () => {
    const dir = tmp();
    const backup = path.join(tmp(), 'nested', 'roster-backup.db');
    await cli(dir, 'user', 'create', '--email', 'kept@example.com');
    const port = 30000 + Math.floor(Math.random() * 20000);
    const server = await serve(dir, port);
    const made = await cli(dir, 'backup', '--to', backup);
    expect(made.code, made.stderr).toBe(0);
    expect(JSON.parse(made.stdout)).toEqual({ file: backup, bytes: expect.any(Number), migrations: expect.any(Number) });
    expect(fs.existsSync(`${backup}.partial`)).toBe(false);
    await cli(dir, 'user', 'create', '--email', 'after-backup@example.com');

    const refused = await cli(dir, 'restore', '--from', backup);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('stop the server before restoring');
    expect(await server.stop()).toBe(0);

    const restored = await cli(dir, 'restore', '--from', backup);
    expect(restored.code, restored.stderr).toBe(0);
    expect((await cli(dir, 'key', 'rotate', '--email', 'kept@example.com')).code).toBe(0);
    const gone = await cli(dir, 'key', 'rotate', '--email', 'after-backup@example.com');
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('No user with e-mail after-backup@example.com');
  });

  it('refuses what is not a Roster backup and explains PostgreSQL backups', async () => {
    const dir = tmp();
    await cli(dir, 'user', 'create', '--email', 'safe@example.com');
    const junk = path.join(tmp(), 'junk.db');
    fs.writeFileSync(junk, 'not a database at all, just text padded out to look big enough'.repeat(100));
    const bad = await cli(dir, 'restore', '--from', junk);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not a SQLite database|cannot be opened/);
    expect((await cli(dir, 'key', 'rotate', '--email', 'safe@example.com')).code).toBe(0);
    expect((await cli(dir, 'backup')).stderr).toContain('--to is required');
    const pg = await cliWith(env(dir, { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }), ['backup', '--to', junk]);
    expect(pg.code).toBe(2);
    expect(pg.stderr).toContain('pg_dump');
  });
});
