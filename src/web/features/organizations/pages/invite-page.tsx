import { Alert, Badge, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconMailOpened } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { workspacePath } from '../../../../shared/pages.ts';
import { displayName, useMe } from '../../../lib/use-me.ts';
import { inviteMutations, inviteQueries } from '../../../data/invites.ts';
import { useApiMutation } from '../../../lib/mutation.ts';
import { ErrorText } from '../../../components/error-text.tsx';

function Problem({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Alert color="orange" variant="light" icon={<IconAlertTriangle aria-hidden />} title={title} role="alert">
      {children}
    </Alert>
  );
}

/** /invite?token=… — shows the organization and role, then accept (joins and switches) or decline. */
export function InvitePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const me = useMe();
  const navigate = useNavigate();
  const invite = useQuery({ ...inviteQueries.byToken(token), enabled: token.length > 0 });
  const [declined, setDeclined] = useState<string | null>(null);
  const accept = useApiMutation(inviteMutations.accept, {
    onSuccess: (joined) => {
      // Into the organization's workspace: the session acts there by the new membership.
      void navigate(workspacePath(joined.organization_id, '/organization'), { replace: true });
    },
  });
  const decline = useApiMutation(inviteMutations.decline, { onSuccess: (answer) => setDeclined(answer.message) });
  const answering = accept.isPending || decline.isPending;
  // Only the latest answer's failure is shown: each button clears the other's.
  const failure = accept.error ?? decline.error;

  let body: React.ReactNode;
  if (!token) {
    body = <Problem title="No invitation in this link">Open the link from your invitation e-mail exactly as it was sent.</Problem>;
  } else if (declined) {
    body = (
      <Alert color="gray" title="Invitation declined">
        {declined}
      </Alert>
    );
  } else if (invite.isPending) {
    body = <Skeleton height={180} />;
  } else if (invite.isError) {
    const err = invite.error;
    if (err instanceof ApiError && err.status === 400) {
      body = <Problem title="This invitation has expired">Ask the organization to send you a new invitation.</Problem>;
    } else if (err instanceof ApiError && err.status === 403) {
      body = (
        <Problem title="This invitation is for another account">
          You are signed in as {me.data ? (me.data.email ?? displayName(me.data)) : 'another user'}. Sign in with the account of the invited e-mail address, then open the
          link again.
        </Problem>
      );
    } else if (err instanceof ApiError && err.status === 404) {
      body = (
        <Problem title="This invitation is no longer valid">
          It was already used, declined, cancelled, or replaced by a newer invitation. Ask for a new one if you still need access.
        </Problem>
      );
    } else {
      body = <ErrorAlert error={err} onRetry={() => void invite.refetch()} />;
    }
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
          <Group gap={6}>
            <IconMailOpened size={16} aria-hidden />
            Organization invitation
          </Group>
        }
      />
      {body}
    </Stack>
  );
}
