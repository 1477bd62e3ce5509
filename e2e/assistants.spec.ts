import type { ResponseOf } from '../src/shared/operation.ts';
import type { createAssistant, getAssistant } from '../src/shared/operations/assistants.ts';
import type { getCredits } from '../src/shared/operations/credits.ts';
import type { addMember } from '../src/shared/operations/organizations.ts';
import { checkA11y, expect, expectProblems, signIn, test, unique } from './fixtures.ts';
import { pngImage, wavTone } from './media-files.ts';

test.describe('assistants', () => {
  test('hire with an uploaded photo and a cloned voice, see it listed, reconfigure it, and be told why its voice cannot be deleted', async ({ page, roster }) => {
    // The voice in use cannot be deleted: the server's 409 is what the page explains.
    expectProblems(page, /^409 DELETE \/v0\/assistant\/voice\//);
    const user = await roster.createUser({ name: 'Hana Hirer', credits: 50 });
    const api = roster.api(user.api_key);
    const surname = unique('Lovelace');
    const fullName = `Ada ${surname}`;
    const voiceName = unique('Warm voice');

    // Nothing hired yet: the empty state leads to hiring.
    await signIn(page, user.api_key, '/assistants');
    await expect(page.getByRole('heading', { name: 'No assistants yet' })).toBeVisible();
    await checkA11y(page);
    await page.getByRole('link', { name: 'Hire an assistant' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Hire an assistant' })).toBeVisible();

    // Profile, work, location.
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Surname').fill(surname);
    await page.getByLabel('Age', { exact: true }).fill('36');
    await page.getByLabel('About', { exact: true }).fill('Writes the first programs.');
    await page.getByLabel('Weekly limit (hours)').fill('20');
    await page.getByLabel('Maximum parallel tasks').fill('3');
    await page.getByRole('combobox', { name: 'Time zone' }).fill('berlin');
    await page.getByRole('option', { name: /^Europe\/Berlin/ }).click();
    await expect(page.getByRole('combobox', { name: 'Time zone' })).toHaveValue(/^Europe\/Berlin/);
    // The cost and the balance are on screen before anything is sent.
    await expect(page.getByText('50 credits', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Hire for 10 credits' })).toBeEnabled();
    // Bad values are caught by the shared schema before sending, each on its field.
    await page.getByLabel('Assistant e-mail').fill('not-an-address');
    await page.getByLabel('Weekly limit (hours)').fill('200');
    await page.getByRole('button', { name: 'Hire for 10 credits' }).click();
    await expect(page.getByLabel('Assistant e-mail')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Must be a valid e-mail address.')).toBeVisible();
    await expect(page.getByText('Must be at most 168 hours (the hours in a week).')).toBeVisible();
    await checkA11y(page);
    await page.getByLabel('Assistant e-mail').fill('');
    await page.getByLabel('Weekly limit (hours)').fill('20');

    // Photo: a text file named .png is refused in the browser; a real PNG is cropped and uploaded.
    await page.getByLabel('Photo file').setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not really a picture') });
    await expect(page.getByRole('alert').filter({ hasText: 'fake.png: This is not a JPEG, PNG, WebP or GIF file' })).toBeVisible();
    await page.getByLabel('Photo file').setInputFiles({ name: 'ada.png', mimeType: 'image/png', buffer: pngImage(320, 200) });
    await expect(page.getByRole('group', { name: /^Crop area/ })).toBeVisible();
    await page.getByRole('slider', { name: 'Zoom' }).press('ArrowRight');
    await checkA11y(page);
    await page.getByRole('button', { name: 'Crop and upload' }).click();
    const photo = page.getByRole('region', { name: 'Photo' }).getByRole('img', { name: `Photo of ${fullName}` });
    await expect(photo).toBeVisible();
    await expect(photo).toHaveAttribute('src', /\/v0\/files\//);

    // Voice: clone one from an uploaded WAV, listened to before it is sent; it is then selected.
    await page.getByRole('button', { name: 'Clone a new voice' }).click();
    const dialog = page.getByRole('dialog', { name: 'Clone a voice' });
    await dialog.getByLabel('Voice name').fill(voiceName);
    await dialog.getByLabel('Language').fill('en');
    await dialog.getByLabel('Voice sample file').setInputFiles({ name: 'sample.wav', mimeType: 'audio/wav', buffer: wavTone(1) });
    await expect(dialog.getByLabel('Play the voice sample')).toBeVisible();
    await expect(dialog.getByText('sample.wav')).toBeVisible();
    await checkA11y(page);
    await dialog.getByRole('button', { name: 'Clone voice' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('combobox', { name: 'Voice' })).toHaveValue(new RegExp(`^${voiceName}`));
    await checkA11y(page);

    await page.getByRole('button', { name: 'Hire for 10 credits' }).click();
    await expect(page.getByRole('heading', { level: 1, name: fullName })).toBeVisible();
    await expect(page).toHaveURL(/\/assistants\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    expect((await api.get<ResponseOf<typeof getCredits>>('/v0/credits')).credits).toBe(40);

    // The list shows it with its photo, time zone, voice, limit and parallelism.
    await page.getByRole('navigation').getByRole('link', { name: 'Assistants' }).click();
    const row = page.getByRole('row', { name: new RegExp(fullName) });
    await expect(row).toContainText('Europe/Berlin');
    await expect(row).toContainText(voiceName);
    await expect(row).toContainText('20 h/week');
    await expect(row).toContainText('3 tasks');
    await expect(row).toContainText('Writes the first programs.');
    await expect(row.locator('img')).toHaveAttribute('src', /\/v0\/files\//);
    await page.getByLabel('Search assistants').fill('nobody-matches-this');
    await expect(page.getByText('No assistant matches “nobody-matches-this”.')).toBeVisible();
    // Typed key by key as fast as the keyboard goes: no keystroke is lost, and the URL follows.
    const search = page.getByLabel('Search assistants');
    await search.fill('');
    await search.pressSequentially(surname);
    await expect(search).toHaveValue(surname);
    await expect(row).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(surname)}`));
    await checkA11y(page);

    // Reconfigure: only the changed fields are sent.
    await row.getByRole('link', { name: fullName }).click();
    await expect(page.getByRole('heading', { level: 1, name: fullName })).toBeVisible();
    await checkA11y(page);
    const timezone = page.getByRole('combobox', { name: 'Time zone' });
    await timezone.fill('tokyo');
    await page.getByRole('option', { name: /^Asia\/Tokyo/ }).click();
    await page.getByLabel('Weekly limit (hours)').fill('35');
    await expect(page.getByText('You have unsaved changes.')).toBeVisible();
    const patch = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().endsWith(`/v0/assistant/${id}/config`));
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect((await patch).postDataJSON()).toEqual({ timezone: 'Asia/Tokyo', weekly_limit: 35 });
    await expect(page.getByText('No unsaved changes.')).toBeVisible();
    const saved = (await api.get<ResponseOf<typeof getAssistant>>(`/v0/assistant/${id}`)).info;
    expect(saved).toMatchObject({ timezone: 'Asia/Tokyo', weekly_limit: 35, max_parallel: 3, about: 'Writes the first programs.', first_name: 'Ada' });

    // The voice is in use: deleting it is refused, and the page says by whom.
    await page.goto('/assistants/voices');
    await expect(page.getByRole('heading', { level: 1, name: 'Voices' })).toBeVisible();
    const voiceRow = page.getByRole('row', { name: new RegExp(voiceName) });
    await expect(voiceRow.getByText('Clone')).toBeVisible();
    await expect(voiceRow.getByRole('button', { name: `Play ${voiceName}` })).toBeEnabled();
    await checkA11y(page);
    await voiceRow.getByRole('button', { name: `Delete ${voiceName}` }).click();
    await page
      .getByRole('dialog', { name: `Delete the voice ${voiceName}?` })
      .getByRole('button', { name: 'Delete voice' })
      .click();
    const explanation = page.getByRole('alert').filter({ hasText: `${voiceName} is still in use` });
    await expect(explanation).toContainText('Cannot delete voice. It is currently in use by at least one assistant.');
    await expect(explanation.getByRole('link', { name: fullName })).toHaveAttribute('href', `/assistants/${id}#voice`);
    await checkA11y(page);
    await expect(voiceRow).toBeVisible();
  });

  test('short credits are explained before submitting, and a 402 from the server reads clearly', async ({ page, roster }) => {
    expectProblems(page, /^402 POST \/v0\/assistant$/);
    const poor = await roster.createUser({ name: 'Pete Poor', credits: 5 });
    await signIn(page, poor.api_key, '/assistants/new');
    // One message, in the person's words, saying where credits come from (no server command).
    await expect(page.getByText('Not enough credits', { exact: true })).toHaveCount(1);
    await expect(page.getByText('Hiring costs 10 credits, and you have 5: at least 5 more are needed.')).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'Not enough credits' })).toContainText(
      /administrators? of this Roster instance|You administer this Roster instance/,
    );
    await expect(page.getByText(/npm run|roster --/)).toHaveCount(0);
    // The balance is in the header on every page.
    await expect(page.getByRole('status', { name: '5 credits in Personal workspace' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Hire for 10 credits' })).toBeDisabled();
    await checkA11y(page);

    // Enough when the page loads, spent elsewhere before submitting: the server's 402 is shown as such.
    const racer = await roster.createUser({ name: 'Rita Racer', credits: 10 });
    await signIn(page, racer.api_key, '/assistants/new');
    await page.getByLabel('First name').fill('Late');
    await expect(page.getByRole('button', { name: 'Hire for 10 credits' })).toBeEnabled();
    await roster.api(racer.api_key).post('/v0/assistant', { first_name: 'Early', create_infra: false });
    await page.getByRole('button', { name: 'Hire for 10 credits' }).click();
    // The balance is read again, and the same single message says what is missing.
    await expect(page.getByText('Hiring costs 10 credits, and you have 0: at least 10 more are needed.')).toBeVisible();
    await expect(page.getByText('Not enough credits', { exact: true })).toHaveCount(1);
    await expect(page).toHaveURL(/\/assistants\/new$/);
    await checkA11y(page);
  });

  test('an organization short of credits tells its owner where credits come from, and links to moving their own', async ({ page, roster }) => {
    const owner = await roster.createUser({ name: 'Olga Owner' });
    const org = await roster.createOrg({ ownerEmail: owner.email });
    await signIn(page, owner.api_key, `/o/${org.organization_id}/assistants/new`);
    const alert = page.getByRole('alert').filter({ hasText: 'Not enough credits' });
    await expect(alert).toContainText(`Hiring costs 10 credits, and ${org.name} has 0: at least 10 more are needed.`);
    await expect(alert).toContainText('ask an administrator of this Roster instance to grant it some');
    await expect(page.getByRole('status', { name: `0 credits in ${org.name}` })).toBeVisible();
    await checkA11y(page);
    if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/hire-not-enough-credits.png`, fullPage: true });
    await alert.getByRole('link', { name: 'move credits from your personal balance to this organization' }).click();
    await expect(page).toHaveURL(new RegExp(`/o/${org.organization_id}/organization\\?tab=settings$`));
    await expect(page.getByRole('heading', { name: 'Move credits to this organization' })).toBeVisible();
  });

  test('a server-side rule lands on its field: a spending cap above the account limit', async ({ page, roster }) => {
    expectProblems(page, /^422 PATCH \/v0\/assistant\/\d+\/config$/);
    const user = await roster.createUser({ name: 'Cap Tester', credits: 20 });
    const api = roster.api(user.api_key);
    await api.put('/v0/user/spending-limit', { monthly_spending_cap: 200 });
    const { info } = await api.post<ResponseOf<typeof createAssistant>>('/v0/assistant', { first_name: 'Capped', about: 'Keeps its about', create_infra: false });
    await signIn(page, user.api_key, `/assistants/${info.agent_id}`);
    await expect(page.getByText('It cannot exceed your account limit of $200.00 per month.')).toBeVisible();
    // The account limit drops after the page loaded: the server has the last word.
    await api.put('/v0/user/spending-limit', { monthly_spending_cap: 100 });
    const cap = page.getByLabel('Monthly spending cap (USD)');
    await cap.fill('150');
    await page.getByLabel('About', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(cap).toHaveAttribute('aria-invalid', 'true');
    await checkA11y(page);
    // Clearing the cap sends null; the about field, cleared too, is sent as null as well.
    await cap.fill('');
    const patch = page.waitForRequest((r) => r.method() === 'PATCH');
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect((await patch).postDataJSON()).toEqual({ about: null });
    await expect(page.getByText('No unsaved changes.')).toBeVisible();
    expect((await api.get<ResponseOf<typeof getAssistant>>(`/v0/assistant/${info.agent_id}`)).info).toMatchObject({
      about: null,
      first_name: 'Capped',
      monthly_spending_cap: null,
    });
  });

  test('change the photo of a hired assistant, then delete it after confirming', async ({ page, roster }) => {
    const user = await roster.createUser({ name: 'Dora Deleter', credits: 20 });
    const { info } = await roster
      .api(user.api_key)
      .post<ResponseOf<typeof createAssistant>>('/v0/assistant', { first_name: 'Temp', surname: 'Worker', create_infra: false });
    await signIn(page, user.api_key, `/assistants/${info.agent_id}`);
    const photoSection = page.getByRole('region', { name: 'Photo' });
    await expect(photoSection.getByText('No photo yet.')).toBeVisible();
    await photoSection.getByLabel('Photo file').setInputFiles({ name: 'new.png', mimeType: 'image/png', buffer: pngImage(120, 240) });
    await photoSection.getByRole('button', { name: 'Crop and upload' }).click();
    await expect(photoSection.getByRole('img', { name: 'Photo of Temp Worker' })).toHaveAttribute('src', /\/v0\/files\//);
    const attached = (await roster.api(user.api_key).get<ResponseOf<typeof getAssistant>>(`/v0/assistant/${info.agent_id}`)).info.profile_photo!;
    expect(attached).toMatch(/\/v0\/files\//);
    // The crop is square whatever the source's shape.
    const size = await page.evaluate(async (url) => {
      const img = new Image();
      img.src = url;
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    }, attached);
    expect(size).toEqual([120, 120]);
    await page.getByRole('button', { name: 'Delete assistant' }).click();
    await page.getByRole('dialog', { name: 'Delete Temp Worker?' }).getByRole('button', { name: 'Delete assistant' }).click();
    await expect(page).toHaveURL(/\/assistants$/);
    await expect(page.getByRole('heading', { name: 'No assistants yet' })).toBeVisible();
    // Its old address, opened on purpose: the API's 404 is what the page explains.
    expectProblems(page, new RegExp(`^404 GET /v0/assistant/${info.agent_id}$`));
    await page.goto(`/assistants/${info.agent_id}`);
    await expect(page.getByRole('heading', { name: 'Assistant not found' })).toBeVisible();
    await checkA11y(page);
  });
});

test.describe('assistants for an organization viewer', () => {
  test('a viewer sees the pages and plays samples but cannot hire or clone, and is told why', async ({ page, roster }) => {
    const owner = await roster.createUser({ name: 'Owen Owner' });
    const viewer = await roster.createUser({ name: 'Vic Viewer' });
    const org = await roster.createOrg({ ownerEmail: owner.email });
    const added = await roster
      .api(org.api_key)
      .post<ResponseOf<typeof addMember>>(`/v0/organizations/${org.organization_id}/members`, { user_id: viewer.user_id, role_id: 4 });
    await signIn(page, added.api_key, '/assistants');
    await expect(page.getByRole('heading', { name: 'No assistants yet' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Hire an assistant' })).toBeDisabled();
    await page.getByLabel('Your role lacks the assistant:write permission.').hover();
    await expect(page.getByRole('tooltip')).toHaveText('Your role lacks the assistant:write permission.');
    await checkA11y(page);
    await page.goto('/assistants/voices');
    await expect(page.getByRole('heading', { level: 1, name: 'Voices' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Clone a voice' })).toBeDisabled();
    await checkA11y(page);
    // Listening needs no permission; one sample plays at a time.
    await page.getByRole('button', { name: 'Play Aria' }).click();
    await expect(page.getByRole('button', { name: 'Pause Aria' })).toBeVisible();
    await page.getByRole('button', { name: 'Play Roger' }).click();
    await expect(page.getByRole('button', { name: 'Pause Roger' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Play Aria' })).toBeVisible();
    await page.getByRole('button', { name: 'Pause Roger' }).click();
    await expect(page.getByRole('button', { name: 'Play Roger' })).toBeVisible();
    await expect(page.getByText(/could not be played/)).toHaveCount(0);
  });
});
