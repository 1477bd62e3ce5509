import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

// One real server per run, on its own port and a fresh data directory. Workers inherit these from
// the runner process, so the fixtures talk to the same server and database.
process.env.E2E_PORT ??= String(20000 + Math.floor(Math.random() * 20000));
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'roster-e2e-'));
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

export default defineConfig({
  testDir: 'e2e',
  // Generous: CI machines are shared and a whole user journey runs in one test.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: process.env.CI ? 2 : 2,
  retries: 0,
  forbidOnly: true,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    // The browser asks for reduced motion (the theme honours it): what a test or axe sees is never a fade
    // half-way. A notification fading out under axe once read as failing colour contrast.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
      // Without these, Chromium keeps calling home on this closed network.
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    command: 'node e2e/serve.mjs',
    url: `${baseURL}/v0/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
