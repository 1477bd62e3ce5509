import { spawnSync } from 'node:child_process';

/** Installs Debian packages for the bench when running as root (as the PostgreSQL suite installs its cluster); false otherwise. */
export function aptInstall(packages: string[]): boolean {
  if (process.getuid?.() !== 0) return false;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  return spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { stdio: 'inherit', env }).status === 0;
}
