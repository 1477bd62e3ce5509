import { Alert, Anchor, Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { safeNext } from '../../shared/sessions.ts';
import { sessionMutations } from '../data/sessions.ts';
import { errorMessage } from '../lib/api-client.ts';
import { sessionStore } from '../lib/session.ts';
import { Logo } from '../components/logo.tsx';

/**
 * The token of a `#token=` sign-in link in the address, if any; `undefined` while rendering the first
 * screen on the server, which never sees the fragment (it shows the "checking" state).
 */
function tokenInHash(): string | null | undefined {
  if (typeof window === 'undefined') return undefined;
  const match = /^#token=([\w-]+)$/.exec(window.location.hash);
  return match ? match[1]! : null;
}

const NO_TOKEN = 'This address has no sign-in token. Open the link from the e-mail again, or ask for a new one.';

/**
 * Where a mailed sign-in link lands: the token is in the fragment (never sent to a server, so never in a
 * log); this page takes it out of the address bar and history, posts it to the API, which answers with the
 * HttpOnly session cookie, and goes to the page of the link's `?next=` (else the overview). Every tab is then signed in.
 */
export function SignInLinkPage() {
  const navigate = useNavigate();
  const [token] = useState(tokenInHash);
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', window.location.pathname + window.location.search);
    // Once: a token works once, and StrictMode runs effects twice in development.
    if (!token || started.current) return;
    started.current = true;
    sessionMutations.signIn.mutationFn(token).then(
      () => {
        sessionStore.signInWithCookie();
        // Back to the page the person asked for the link from (an invitation, say), else the overview.
        navigate(safeNext(new URLSearchParams(window.location.search).get('next')), { replace: true });
      },
      (error: unknown) => setFailure(errorMessage(error)),
    );
  }, [token, navigate]);

  const error = token === undefined ? null : token ? failure : NO_TOKEN;
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={440}>
        <Stack gap="md">
          <Logo size={40} />
          <Title order={1} size="h2">
            Signing in to Roster
          </Title>
          {error ? (
            <>
              <Alert variant="light" color="red" icon={<IconAlertCircle aria-hidden />} title="This link did not sign you in">
                {error}
              </Alert>
              <Anchor component={Link} to="/sign-in">
                Back to sign-in
              </Anchor>
            </>
          ) : (
            <Stack align="center" gap="xs" role="status">
              <Loader size="sm" aria-hidden />
              <Text size="sm">Checking your sign-in link…</Text>
            </Stack>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
