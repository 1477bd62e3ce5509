// Debian's Chromium, which the e2e suite (`npm test`) and `npm run lighthouse` drive: installed with apt when
// missing and running as root (Playwright's own browser download cannot work on these machines).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

export const chromiumPath = process.env.CHROME_PATH || '/usr/bin/chromium';

/** Whether Chromium is at chromiumPath, installing it first when it is missing and we may; `needer` names who needs it. */
export function ensureChromium(needer) {
  if (fs.existsSync(chromiumPath)) return true;
  if (process.getuid?.() !== 0) {
    console.error(`Chromium is missing at ${chromiumPath}. Install it with:\n\n  sudo apt-get install -y chromium\n`);
    return false;
  }
  console.log(`Installing Debian chromium (needed by ${needer})…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => spawnSync('apt-get', args, { stdio: 'inherit', env }).status === 0;
  return apt(['update', '-qq']) && apt(['install', '-y', '-qq', '--no-install-recommends', 'chromium']) && fs.existsSync(chromiumPath);
}
