// A throwaway PostgreSQL cluster for tests: Debian's postgresql (installed with apt when missing and
// running as root), a temp data directory, a random loopback port, durability off (it is thrown away).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function pgBin() {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return null;
  const versions = fs
    .readdirSync(base)
    .filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(base, versions[0], 'bin') : null;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

export function ensurePostgres() {
  let bin = pgBin();
  if (bin) return bin;
  if (!isRoot()) throw new Error('PostgreSQL is not installed. Install it with:\n\n  sudo apt-get install -y postgresql\n');
  console.log('Installing Debian postgresql (needed by the PostgreSQL suite)…');
  sh('apt-get', ['update', '-qq']);
  sh('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'postgresql'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  bin = pgBin();
  if (!bin) throw new Error('postgresql installed but initdb not found');
  return bin;
}

/** Starts a cluster; returns its admin URL and a stop function. */
export function startCluster() {
  const bin = ensurePostgres();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-pg-'));
  const data = path.join(dir, 'data');
  const port = 40000 + Math.floor(Math.random() * 20000);
  // initdb refuses to run as root: run the server as the postgres system user then.
  const asUser = isRoot() ? ['runuser', '-u', 'postgres', '--'] : [];
  if (isRoot()) sh('chown', ['postgres', dir]);
  const run = (exe, args) => (asUser.length ? sh(asUser[0], [...asUser.slice(1), path.join(bin, exe), ...args]) : sh(path.join(bin, exe), args));
  run('initdb', ['-D', data, '-U', 'roster', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
  run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  return {
    url: `postgres://roster@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
