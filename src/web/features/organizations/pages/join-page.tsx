import { Alert, Anchor, Badge, Button, Center, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { workspacePath } from '../../../../shared/pages.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { InviteProblem } from '../components/invite-problem.tsx';
import { ErrorText } from '../../../components/error-text.tsx';
import { inviteMutations, inviteQueries } from '../../../data/invites.ts';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { useApiMutation } from '../../../lib/mutation.ts';
import { sessionStore, useSession } from '../../../lib/session.ts';
import { Logo } from '../../../components/logo.tsx';

/**
 * /invite/join?token=… — where an invite link takes a signed-out visitor (app/require-session.tsx): who
 * invites which address with what role; without an account, "Join" creates it (the link proves the
 * address), signs the browser in and opens the organization; with one, sign in first, then accept.
 */
export function JoinPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const session = useSession();
  const navigate = useNavigate();
  const form = useForm<{ name: string }>({ defaultValues: { name: '' } });
  const join = useApiMutation(inviteMutations.join, {
    onSuccess: (joined) => {
      sessionStore.signInWithCookie();
      notifications.show({ color: 'teal', title: `You joined ${joined.organization_name}`, message: joined.message });
      void navigate(workspacePath(joined.organization_id, '/'), { replace: true, state: { focusHeading: true } });
    },
  });

  // Joining, or joined and on the way out (signed in by then; the mutation is still pending while its
  // onSuccess runs): the used invite is not asked for again, and this page does not redirect.
  const leaving = join.isPending || join.isSuccess;
  const preview = useQuery({ ...inviteQueries.preview(token), enabled: token.length > 0 && !leaving });

  // Signed in already (another tab, or a key): the invite page accepts as that account.
  if (session.signedIn && !leaving) return <Navigate to={`/invite?token=${encodeURIComponent(token)}`} replace />;

  const signInFirst = `/sign-in?next=${encodeURIComponent(`/invite?token=${token}`)}`;
  let body: React.ReactNode;
  if (!token) {
    body = <InviteProblem title="No invitation in this link">Open the link from your invitation e-mail exactly as it was sent.</InviteProblem>;
  } else if (preview.isPending) {
    body = <Skeleton height={180} />;
  } else if (preview.isError) {
    const err = preview.error;
    if (err instanceof ApiError && err.status === 400) {
      body = <InviteProblem title="This invitation has expired">Ask the organization to send you a new invitation.</InviteProblem>;
    } else if (err instanceof ApiError && err.status === 404) {
      body = (
        <InviteProblem title="This invitation is no longer valid">
          It was already used, declined, cancelled, or replaced by a newer invitation. Ask for a new one if you still need access.
        </InviteProblem>
      );
    } else {
      body = <ErrorAlert error={err} onRetry={() => void preview.refetch()} />;
    }
  } else {
    const inv = preview.data;
    const offer = (
      <Text>
        {inv.invited_by_name ?? 'A member'} invited <strong>{inv.invitee_email}</strong> to join <strong>{inv.organization_name}</strong> as{' '}
        <Badge variant="light">{inv.role_name ?? 'Member'}</Badge>
      </Text>
    );
    const expires = (
      <Text size="sm" c="dimmed">
        The invitation expires {new Date(inv.expires_at).toLocaleString()}.
      </Text>
    );
    if (inv.account_exists) {
      body = (
        <Stack>
          {offer}
          <Alert variant="light" color="blue" icon={<IconInfoCircle aria-hidden />} title={`${inv.invitee_email} already has a Roster account`}>
            Sign in with it: the sign-in link brings you back to this invitation to accept it.
          </Alert>
          <Button component={Link} to={signInFirst} w="fit-content">
            Sign in to accept
          </Button>
          {expires}
        </Stack>
      );
    } else if (!inv.can_join) {
      body = (
        <Stack>
          {offer}
          <InviteProblem title="This instance does not create accounts">
            Ask its operator to create an account for {inv.invitee_email}, then sign in and open this invitation link again.
          </InviteProblem>
        </Stack>
      );
    } else {
      const onSubmit = form.handleSubmit((values) => join.mutate({ token, body: { name: values.name.trim() || undefined } }));
      body = (
        <form onSubmit={(e) => void onSubmit(e)} noValidate>
          <Stack>
            {offer}
            <Text size="sm">Joining creates your Roster account for this address and signs you in: the link you opened proves it is yours.</Text>
            <TextInput
              label="Your name"
              description="Optional: how the organization sees you. You can change it later."
              autoComplete="name"
              maxLength={100}
              {...form.register('name')}
            />
            {join.error && <ErrorText>{errorMessage(join.error)}</ErrorText>}
            <Button type="submit" loading={join.isPending} w="fit-content">
              Join {inv.organization_name}
            </Button>
            {expires}
          </Stack>
        </form>
      );
    }
  }

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={520}>
        <Stack gap="md">
          <Logo size={40} />
          <Title order={1} size="h2">
            {preview.data ? `Join ${preview.data.organization_name} on Roster` : 'Invitation to Roster'}
          </Title>
          {body}
          <Text size="sm" c="dimmed">
            Not {preview.data?.invitee_email ?? 'the invited person'}?{' '}
            <Anchor component={Link} to="/sign-in" size="sm" underline="always">
              Sign in with your own account
            </Anchor>
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
