import { Alert, Anchor, Button, Center, Collapse, Divider, Paper, PasswordInput, Stack, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconInfoCircle, IconMailCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { safeNext } from '../../shared/sessions.ts';
import { whoIs } from '../data/account.ts';
import { sessionMutations } from '../data/sessions.ts';
import { ApiError, errorMessage } from '../lib/api-client.ts';
import { normalizeBase, useSession } from '../lib/session.ts';
import { Logo } from '../components/logo.tsx';

// Plain rules rather than a zod schema: the sign-in screen is the first download, and this is all it checks.
interface SignInValues {
  apiKey: string;
  apiBase: string;
}

const apiKeyRules = {
  validate: (value: string) => {
    const v = value.trim();
    if (!v) return 'Enter your API key.';
    if (!/^[\w-]+$/.test(v)) return 'An API key has only letters, digits, "_" and "-": check for stray characters.';
    return true;
  },
};

const emailRules = {
  validate: (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim()) || 'Enter your e-mail address, such as you@example.com.',
};

const apiBaseRules = {
  validate: (value: string) =>
    value.trim() === '' || /^https?:\/\/[^\s/]+/i.test(value.trim()) || 'Use an http(s) address such as https://roster.example.com, or leave it empty.',
};

export function SignInPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [advanced, setAdvanced] = useState(session.apiBase !== '');
  const form = useForm<SignInValues>({
    defaultValues: { apiKey: '', apiBase: session.apiBase },
  });
  const next = safeNext(params.get('next'));
  const linkForm = useForm<{ email: string }>({ defaultValues: { email: '' } });
  const [sentTo, setSentTo] = useState<string | null>(null);

  if (session.signedIn) return <Navigate to={next} replace />;

  const onSubmit = form.handleSubmit(async (values) => {
    const apiKey = values.apiKey.trim();
    const base = normalizeBase(values.apiBase);
    try {
      await whoIs(apiKey, base);
    } catch (error) {
      const message =
        error instanceof ApiError && error.status === 401
          ? `That key was not accepted: ${error.detail}`
          : error instanceof ApiError && error.status === 0
            ? `Could not reach the Roster API${base ? ` at ${base}` : ''}. Check the address and that the server is running.`
            : (error as Error).message;
      form.setError('apiKey', { type: 'server', message });
      return;
    }
    session.signIn(apiKey, base);
    navigate(next, { replace: true });
  });

  const sendLink = linkForm.handleSubmit(async ({ email }) => {
    try {
      // The mailed link comes back to the page asked for (an invitation, say), not only to the overview.
      await sessionMutations.requestLink.mutationFn({ email: email.trim(), next: next === '/' ? undefined : next });
      setSentTo(email.trim());
    } catch (error) {
      linkForm.setError('email', { type: 'server', message: errorMessage(error) });
    }
  });

  const errors = form.formState.errors;
  const linkErrors = linkForm.formState.errors;
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={440}>
        <Stack gap="md">
          <Stack gap={4}>
            <Logo size={40} />
            <Title order={1} size="h2">
              Sign in to Roster
            </Title>
            <Text c="dimmed" size="sm">
              We e-mail you a link that signs you in, in every tab of this browser.
            </Text>
          </Stack>
          {session.endedBecause && (
            <Alert variant="light" color="blue" icon={<IconInfoCircle aria-hidden />}>
              {session.endedBecause}
            </Alert>
          )}
          <form onSubmit={sendLink} noValidate>
            <Stack gap="sm">
              <TextInput
                label="E-mail address"
                type="email"
                autoComplete="email"
                placeholder="you@example.com"
                data-autofocus
                autoFocus
                error={linkErrors.email?.message}
                aria-invalid={linkErrors.email ? true : undefined}
                {...linkForm.register('email', emailRules)}
              />
              <Button type="submit" loading={linkForm.formState.isSubmitting} fullWidth>
                E-mail me a sign-in link
              </Button>
              {sentTo && (
                <Alert variant="light" color="teal" icon={<IconMailCheck aria-hidden />} role="status" title="Check your inbox">
                  If {sentTo} can sign in here, a link is on its way to it. It works once, for 15 minutes.
                </Alert>
              )}
            </Stack>
          </form>
          <Divider label="or sign in with an API key" labelPosition="center" />
          <form onSubmit={onSubmit} noValidate>
            <Stack gap="md">
              <Text c="dimmed" size="sm">
                A personal key opens your workspace; an organization key opens that organization. For remote servers and scripts.
              </Text>
              <PasswordInput
                label="API key"
                placeholder="rk_…"
                autoComplete="off"
                spellCheck={false}
                error={errors.apiKey?.message}
                aria-invalid={errors.apiKey ? true : undefined}
                {...form.register('apiKey', apiKeyRules)}
              />
              <UnstyledButton
                type="button"
                onClick={() => setAdvanced((v) => !v)}
                aria-expanded={advanced}
                aria-controls="sign-in-advanced"
                style={{ display: 'flex', alignItems: 'center', gap: 4, fontSize: 'var(--mantine-font-size-sm)' }}
              >
                {advanced ? <IconChevronDown size={16} aria-hidden /> : <IconChevronRight size={16} aria-hidden />}
                Remote API (optional)
              </UnstyledButton>
              <Collapse expanded={advanced} id="sign-in-advanced">
                <TextInput
                  label="API base URL"
                  description="Leave empty to use this server. The remote server must allow this origin (ROSTER_CORS_ORIGINS)."
                  placeholder="https://roster.example.com"
                  inputMode="url"
                  error={errors.apiBase?.message}
                  {...form.register('apiBase', apiBaseRules)}
                />
              </Collapse>
              <Button type="submit" variant="default" loading={form.formState.isSubmitting} fullWidth>
                Sign in
              </Button>
              <Text size="xs" c="dimmed">
                Your key stays in this browser tab only and is forgotten when you close it. An operator can print a sign-in link with{' '}
                <code>npm run roster -- login-link --email you@example.com</code>. The API reference is at{' '}
                <Anchor href="/docs" size="xs" underline="always">
                  /docs
                </Anchor>
                .
              </Text>
            </Stack>
          </form>
        </Stack>
      </Paper>
    </Center>
  );
}
