import type { ResponseOf } from '../src/shared/operation.ts';
import type { listVoices } from '../src/shared/operations/voices.ts';
import { checkA11y, expect, signIn, test, unique } from './fixtures.ts';

// Chromium's fake microphone (a beeping tone) and auto-accepted permission prompt: recording runs for real.
test.use({
  launchOptions: {
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
    ],
  },
});

test('clone a voice recorded with the microphone, listened to before upload', async ({ page, roster }) => {
  const user = await roster.createUser({ name: 'Mira Mic' });
  const voiceName = unique('Recorded');
  await signIn(page, user.api_key, '/assistants/voices');
  await page.getByRole('button', { name: 'Clone a voice' }).click();
  const dialog = page.getByRole('dialog', { name: 'Clone a voice' });
  await dialog.getByLabel('Voice name').fill(voiceName);
  await dialog.getByText('Record with microphone').click();
  await dialog.getByRole('button', { name: 'Start recording' }).click();
  await expect(dialog.getByRole('status')).toContainText('Recording… 0:01');
  await checkA11y(page);
  await dialog.getByRole('button', { name: 'Stop recording' }).click();
  await expect(dialog.getByText(/^recording-.*\.webm$/)).toBeVisible();
  await expect(dialog.getByLabel('Play the voice sample')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Record again' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Clone voice' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row', { name: new RegExp(voiceName) });
  await expect(row.getByText('Clone')).toBeVisible();
  const voices = (await roster.api(user.api_key).get<ResponseOf<typeof listVoices>>('/v0/assistant/voice')).info;
  const sample = voices.find((v) => v.name === voiceName)!.sample_url!;
  const res = await page.request.get(sample);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toMatch(/^audio\/webm/);
});
