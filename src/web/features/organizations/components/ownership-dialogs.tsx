import { Alert, Button, List, Modal, Select, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { memberQueries } from '../../../data/members.ts';
import { ownershipQueries } from '../../../data/ownership.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useDeleteOrganization, useLeaveOrganization, useTransferOwnership } from '../api.ts';
import { deletedThings } from '../format.ts';

// The irreversible changes to an organization, each confirmed by typing its name (the server checks it
// too). Used on the organization's settings and, for an owner, from the account's danger zone.

/** The organization a dialog acts on. */
export interface OrganizationRef {
  id: number;
  name: string;
}

interface DialogProps {
  organization: OrganizationRef;
  opened: boolean;
  onClose: () => void;
  /** After the change succeeded (the dialog has closed). */
  onDone?: () => void;
}

/** A typed-name confirmation: the field, and whether it matches (as the server compares: trimmed). */
function useTypedName(name: string) {
  const [typed, setTyped] = useState('');
  return { typed, setTyped, matches: typed.trim().normalize('NFC') === name, reset: () => setTyped('') };
}

function TypedNameField({ name, typed, setTyped }: { name: string; typed: string; setTyped: (v: string) => void }) {
  return (
    <TextInput
      label="Organization name"
      description={
        <>
          Type <strong>{name}</strong> to confirm.
        </>
      }
      value={typed}
      onChange={(e) => setTyped(e.currentTarget.value)}
      autoComplete="off"
      required
    />
  );
}

/** A dialog whose form confirms one change; the error of the last attempt shows above the button. */
function ConfirmForm({
  title,
  opened,
  onClose,
  onSubmit,
  error,
  children,
}: {
  title: string;
  opened: boolean;
  onClose: () => void;
  onSubmit: () => void;
  error: Error | null;
  children: ReactNode;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered closeButtonProps={{ 'aria-label': 'Close' }}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        <Stack gap="sm">
          {children}
          {error && (
            <Alert color="red" role="alert">
              {errorMessage(error)}
            </Alert>
          )}
        </Stack>
      </form>
    </Modal>
  );
}

/** Hands the organization to another member: they become its Owner, the caller an Admin. */
export function TransferOwnershipModal({ organization, opened, onClose, onDone, ownerId }: DialogProps & { ownerId: string }) {
  const members = useQuery({ ...memberQueries.list(organization.id), enabled: opened });
  const [userId, setUserId] = useState<string | null>(null);
  const name = useTypedName(organization.name);
  const transfer = useTransferOwnership();
  const close = () => {
    name.reset();
    setUserId(null);
    transfer.reset();
    onClose();
  };
  const others = (members.data ?? []).filter((m) => m.user_id !== ownerId);
  return (
    <ConfirmForm
      title={`Transfer ownership of ${organization.name}`}
      opened={opened}
      onClose={close}
      error={transfer.error}
      onSubmit={() => {
        if (!userId || !name.matches) return;
        transfer.mutate(
          { organizationId: organization.id, userId, confirmName: name.typed.trim() },
          {
            onSuccess: () => {
              close();
              onDone?.();
            },
          },
        );
      }}
    >
      <Text size="sm">The new owner gets every permission, including deleting the organization. You stay in it as an Admin.</Text>
      {members.isPending ? (
        <Skeleton height={60} />
      ) : members.isError ? (
        <ErrorAlert error={members.error} onRetry={() => void members.refetch()} />
      ) : others.length === 0 ? (
        <Alert color="yellow">You are its only member. Invite someone first, or delete the organization instead.</Alert>
      ) : (
        <Select
          label="New owner"
          placeholder="Choose a member"
          data={others.map((m) => ({ value: m.user_id, label: `${m.name ?? m.email ?? m.user_id} (${m.role_name ?? 'member'})` }))}
          value={userId}
          onChange={setUserId}
          searchable
          required
          data-autofocus
        />
      )}
      <TypedNameField name={organization.name} typed={name.typed} setTyped={name.setTyped} />
      <Button type="submit" color="red" disabled={!userId || !name.matches} loading={transfer.isPending}>
        Transfer ownership
      </Button>
    </ConfirmForm>
  );
}

/** Deletes the organization after showing exactly what goes with it. */
export function DeleteOrganizationModal({ organization, opened, onClose, onDone }: DialogProps) {
  const preflight = useQuery({ ...ownershipQueries.deletion(organization.id), enabled: opened });
  const name = useTypedName(organization.name);
  const remove = useDeleteOrganization();
  const close = () => {
    name.reset();
    remove.reset();
    onClose();
  };
  const things = preflight.data ? deletedThings(preflight.data.deletes) : [];
  return (
    <ConfirmForm
      title={`Delete ${organization.name}?`}
      opened={opened}
      onClose={close}
      error={remove.error}
      onSubmit={() => {
        if (!name.matches) return;
        remove.mutate(
          { organizationId: organization.id, confirmName: name.typed.trim() },
          {
            onSuccess: () => {
              close();
              onDone?.();
            },
          },
        );
      }}
    >
      <Text size="sm">This permanently deletes the organization and everything in it. It cannot be undone. Its members keep their own accounts.</Text>
      {preflight.isPending ? (
        <Skeleton height={80} />
      ) : preflight.isError ? (
        <ErrorAlert error={preflight.error} onRetry={() => void preflight.refetch()} />
      ) : (
        <div>
          <Text size="sm" id={`org-${organization.id}-deletes`}>
            It deletes:
          </Text>
          <List size="sm" spacing={2} aria-labelledby={`org-${organization.id}-deletes`}>
            {things.length === 0 ? (
              <List.Item>the organization itself (it holds nothing else)</List.Item>
            ) : (
              things.map((thing) => <List.Item key={thing}>{thing}</List.Item>)
            )}
          </List>
        </div>
      )}
      <TypedNameField name={organization.name} typed={name.typed} setTyped={name.setTyped} />
      <Button type="submit" color="red" disabled={!name.matches || !preflight.isSuccess} loading={remove.isPending}>
        Delete this organization permanently
      </Button>
    </ConfirmForm>
  );
}

/** Leaves the organization; the server refuses its owner with what to do instead. */
export function LeaveOrganizationModal({ organization, opened, onClose, onDone }: DialogProps) {
  const leave = useLeaveOrganization();
  const close = () => {
    leave.reset();
    onClose();
  };
  return (
    <ConfirmForm
      title={`Leave ${organization.name}?`}
      opened={opened}
      onClose={close}
      error={leave.error}
      onSubmit={() =>
        leave.mutate(
          { organizationId: organization.id, confirmName: organization.name },
          {
            onSuccess: () => {
              close();
              onDone?.();
            },
          },
        )
      }
    >
      <Text size="sm">You lose access to its projects and assistants, and your organization API keys for it stop working. An Admin can invite you back.</Text>
      <Button type="submit" color="red" loading={leave.isPending} data-autofocus>
        Leave {organization.name}
      </Button>
    </ConfirmForm>
  );
}
