/**
 * The platform's own stack as a peer for `npm run bench`: ../shared/bench/fastapi_peer.py (FastAPI +
 * uvicorn, bearer → hashed key → SQLite → project names) on Debian's python3-fastapi and uvicorn, which
 * are installed with apt when missing and running as root (as the PostgreSQL suite installs its cluster).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { aptInstall } from './apt.ts';
import path from 'node:path';

export const PEER_KEY = 'peer-key-123';
const PYTHON = '/usr/bin/python3'; // Debian's, where apt puts the packages (a pyenv python3 may come first on PATH)
const script = path.resolve(import.meta.dirname, '../../shared/bench/fastapi_peer.py');

const importable = () => spawnSync(PYTHON, ['-c', 'import fastapi, uvicorn']).status === 0;

/** Why the peer cannot run here, or null when it can (installing its packages if needed). */
export function peerUnavailable(): string | null {
  if (!fs.existsSync(script)) return `${script} not found`;
  if (!importable()) {
    if (!aptInstall(['python3-fastapi', 'python3-uvicorn']) || !importable()) {
      return 'python3-fastapi and python3-uvicorn are not installed and apt could not install them (sudo apt-get install -y python3-fastapi python3-uvicorn)';
    }
  }
  return null;
}

/** Starts the peer and resolves once it answers an authenticated GET /v0/projects. */
export async function startPeer(port: number): Promise<ChildProcess> {
  const child = spawn(PYTHON, [script, String(port)], { stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`the peer exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/v0/projects`, { headers: { authorization: `Bearer ${PEER_KEY}` } }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('the peer did not answer within 10 s');
}
