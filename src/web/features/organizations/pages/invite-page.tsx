import { Alert, Badge, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconMailOpened } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { InviteProblem } from '../components/invite-problem.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { workspacePath } from '../../../../shared/pages.ts';
import { displayName, useMe } from '../../../lib/use-me.ts';
import { inviteMutations, inviteQueries } from '../../../data/invites.ts';
import { useApiMutation } from '../../../lib/mutation.ts';
import { ErrorText } from '../../../components/error-text.tsx';
import { sessionMutations } from '../../../data/sessions.ts';
import { sessionStore, useSession } from '../../../lib/session.ts';

/**
 * /invite?token=… signed in — shows which organization invites which address with what role, then accept
 * (joins and switches) or decline; signed in as another address, it says so. Signed out, the link goes to
 * the join page instead (app/require-session.tsx).
 */
export function InvitePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const me = useMe();
  const navigate = useNavigate();
  const [declined, setDeclined] = useState<string | null>(null);
  const accept = useApiMutation(inviteMutations.accept, {
    onSuccess: (joined) => {
      // Into the organization's workspace: the session acts there by the new membership.
      void navigate(workspacePath(joined.organization_id, '/organization'), { replace: true });
    },
  });
  const decline = useApiMutation(inviteMutations.decline, { onSuccess: (answer) => setDeclined(answer.message) });
  const cookie = useSession().cookie;
  const signOut = useApiMutation(sessionMutations.signOut, { onSuccess: () => switchAccount() });
  const switchAccount = () => {
    sessionStore.signOut(null);
    void navigate(`/invite/join?token=${encodeURIComponent(token)}`, { replace: true });
  };
  const answering = accept.isPending || decline.isPending;
  // Once answered the invite is used: asked for again (the workspace switch after accepting reloads what
  // is on screen), it would only answer 404. The mutations drop it from the cache (data/invites.ts).
  const answered = answering || accept.isSuccess || decline.isSuccess;
  const invite = useQuery({ ...inviteQueries.preview(token), enabled: token.length > 0 && !answered });
  // Only the latest answer's failure is shown: each button clears the other's.
  const failure = accept.error ?? decline.error;
  const myEmail = me.data?.email?.toLowerCase() ?? null;

  let body: React.ReactNode;
  if (!token) {
    body = <InviteProblem title="No invitation in this link">Open the link from your invitation e-mail exactly as it was sent.</InviteProblem>;
  } else if (declined) {
    body = (
      <Alert color="gray" title="Invitation declined">
        {declined}
      </Alert>
    );
  } else if (invite.isPending || me.isPending) {
    body = <Skeleton height={180} />;
  } else if (invite.isError) {
    const err = invite.error;
    if (err instanceof ApiError && err.status === 400) {
      body = <InviteProblem title="This invitation has expired">Ask the organization to send you a new invitation.</InviteProblem>;
    } else if (err instanceof ApiError && err.status === 404) {
      body = (
        <InviteProblem title="This invitation is no longer valid">
          It was already used, declined, cancelled, or replaced by a newer invitation. Ask for a new one if you still need access.
        </InviteProblem>
      );
    } else {
      body = <ErrorAlert error={err} onRetry={() => void invite.refetch()} />;
    }
  } else if (me.data && myEmail !== invite.data.invitee_email) {
    const inv = invite.data;
    body = (
      <Stack>
        <InviteProblem title={`This invitation is for ${inv.invitee_email}`}>
          {inv.organization_name} invited {inv.invitee_email}, and you are signed in as {me.data.email ?? displayName(me.data)}. Only the invited address can accept it:
          sign out, then {inv.account_exists ? 'sign in as ' + inv.invitee_email + ' and open the link again' : 'join as ' + inv.invitee_email + ' from this link'}.
        </InviteProblem>
        {signOut.error && <ErrorText>{errorMessage(signOut.error)}</ErrorText>}
        <Button variant="default" w="fit-content" loading={signOut.isPending} onClick={() => (cookie ? signOut.mutate() : switchAccount())}>
          Sign out and continue as {inv.invitee_email}
        </Button>
      </Stack>
    );
  } else {
    const inv = invite.data;
    body = (
      <Card withBorder radius="md" padding="lg">
        <Stack>
          <Title order={2} size="h3">
            Join {inv.organization_name}
          </Title>
          <Text>
            {inv.invited_by_name ?? 'A member'} invited {inv.invitee_email} to join as <Badge variant="light">{inv.role_name}</Badge>
          </Text>
          <Text size="sm" c="dimmed">
            Expires {new Date(inv.expires_at).toLocaleString()}
          </Text>
          {failure && <ErrorText>{errorMessage(failure)}</ErrorText>}
          <Group>
            <Button
              loading={accept.isPending}
              disabled={answering}
              onClick={() => {
                decline.reset();
                accept.mutate(token);
              }}
            >
              Accept invitation
            </Button>
            <Button
              variant="default"
              loading={decline.isPending}
              disabled={answering}
              onClick={() => {
                accept.reset();
                decline.mutate(token);
              }}
            >
              Decline
            </Button>
          </Group>
        </Stack>
      </Card>
    );
  }
  return (
    <Stack maw={640}>
      <PageHeader
        title="Invitation"
        description={
          // A span: the description is a paragraph, which cannot hold a div (the browser would move it out).
          <Group component="span" gap={6}>
            <IconMailOpened size={16} aria-hidden />
            Organization invitation
          </Group>
        }
      />
      {body}
    </Stack>
  );
}
