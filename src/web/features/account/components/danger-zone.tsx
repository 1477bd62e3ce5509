import { Alert, Anchor, Button, List, Modal, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { accountQueries } from '../../../data/account.ts';
import { useDeleteAccount } from '../api.ts';
import type { DeletionSummary } from '../../../../shared/account.ts';
import { useWorkspace } from '../../../lib/workspace.ts';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What the deletion removes, in words (only what there is). */
function deletedThings(d: DeletionSummary): string[] {
  return [
    d.projects > 0 && `${plural(d.projects, 'personal project')} with their contexts, rows, history and dashboards`,
    d.assistants > 0 && plural(d.assistants, 'personal assistant'),
    d.voices > 0 && plural(d.voices, 'cloned voice'),
    d.custom_endpoints > 0 && plural(d.custom_endpoints, 'personal custom endpoint'),
    d.organization_memberships > 0 && `your ${plural(d.organization_memberships, 'organization membership')}`,
    d.api_keys > 0 && plural(d.api_keys, 'API key'),
  ].filter((x): x is string => typeof x === 'string');
}

/** Account deletion: blockers first (with links that resolve them), then a typed confirmation. */
export function DangerZone({ email }: { email: string | null }) {
  const workspace = useWorkspace();
  const check = useQuery(accountQueries.canDelete());
  const [opened, { open, close }] = useDisclosure(false);
  const [typed, setTyped] = useState('');
  const remove = useDeleteAccount();
  const navigate = useNavigate();

  if (check.isPending) return <Skeleton height={80} />;
  if (check.isError) return <ErrorAlert error={check.error} onRetry={() => void check.refetch()} />;

  const matches = !!email && typed.trim().toLowerCase() === email.toLowerCase();
  const deleted = deletedThings(check.data.deletes);
  return (
    <Stack gap="sm">
      <Text size="sm">Deleting your account removes your personal data, files and API keys. It cannot be undone.</Text>
      {deleted.length > 0 && (
        <div>
          <Text size="sm" id="deleted-things">
            It deletes:
          </Text>
          <List size="sm" spacing={2} aria-labelledby="deleted-things">
            {deleted.map((thing) => (
              <List.Item key={thing}>{thing}</List.Item>
            ))}
          </List>
        </div>
      )}
      <Text size="sm" c="dimmed">
        What you created in an organization stays with the organization, shown as made by a deleted user.
      </Text>
      {check.data.blockers.length > 0 && (
        <Alert color="yellow" title="Your account cannot be deleted yet">
          <List size="sm" spacing={4}>
            {check.data.blockers.map((blocker) => {
              return (
                <List.Item key={blocker.reason}>
                  {blocker.details.message}
                  {blocker.reason === 'organization_owner' && (
                    <>
                      {' '}
                      <Anchor component={Link} to={workspace.path('/organization')} underline="always">
                        Manage your organizations
                      </Anchor>
                    </>
                  )}
                </List.Item>
              );
            })}
          </List>
        </Alert>
      )}
      <div>
        <Button color="red" variant="outline" onClick={open} disabled={!check.data.can_delete}>
          Delete my account
        </Button>
      </div>
      <Modal opened={opened} onClose={close} title="Delete your account?" centered>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!matches) return;
            remove.mutate(typed.trim(), { onSuccess: () => navigate('/sign-in', { replace: true }) });
          }}
        >
          <Stack gap="sm">
            <Text size="sm">
              This permanently deletes your account, your personal assistants, projects, files and keys. Type your e-mail address <strong>{email}</strong> to confirm.
            </Text>
            <TextInput label="Your e-mail address" value={typed} onChange={(e) => setTyped(e.currentTarget.value)} autoComplete="off" data-autofocus />
            {remove.isError && (
              <Alert color="red" role="alert">
                {errorMessage(remove.error)}
              </Alert>
            )}
            <Button type="submit" color="red" disabled={!matches} loading={remove.isPending}>
              Delete my account permanently
            </Button>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}
