import { Alert, Button, Group, NumberInput, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCoins } from '@tabler/icons-react';
import { useState } from 'react';
import { MoveCreditsInput } from '../../../../shared/organizations.ts';
import { Section } from '../../../components/section.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useMoveCredits } from '../api.ts';
import { DeleteOrganizationModal, LeaveOrganizationModal, TransferOwnershipModal, type OrganizationRef } from './ownership-dialogs.tsx';

// An organization's settings: funding it (Owner), and its danger zone (hand it over, leave it, delete it).
// What the server would refuse is not offered: the Owner cannot leave, only the Owner transfers and deletes.

interface Props {
  organization: OrganizationRef & { roleName: string | null };
  /** The signed-in person (the transfer picker leaves them out). */
  userId: string;
  /** After the person left the organization or deleted it: it is no longer theirs to show. */
  onGone: () => void;
}

/** Moves credits from the owner's personal balance into the organization. */
function MoveCreditsForm({ organizationId }: { organizationId: number }) {
  const [amount, setAmount] = useState<number | ''>('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const move = useMoveCredits();
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = MoveCreditsInput.safeParse({ amount: amount === '' ? undefined : amount });
        if (!parsed.success) {
          setInvalid(parsed.error.issues[0]?.message ?? 'Enter an amount.');
          return;
        }
        setInvalid(null);
        move.mutate({ organizationId, amount: parsed.data.amount }, { onSuccess: () => setAmount('') });
      }}
    >
      <Stack gap="xs">
        <Group align="flex-end" gap="sm">
          <NumberInput
            label="Credits to move"
            description="From your personal balance; both balances change together."
            value={amount}
            onChange={(v) => setAmount(typeof v === 'number' ? v : '')}
            min={0}
            decimalScale={6}
            clampBehavior="none"
            error={invalid}
            w={260}
          />
          <Button type="submit" leftSection={<IconCoins size={16} aria-hidden />} loading={move.isPending}>
            Move credits
          </Button>
        </Group>
        {move.isError && (
          <Alert color="red" role="alert">
            {errorMessage(move.error)}
          </Alert>
        )}
      </Stack>
    </form>
  );
}

export function OrganizationSettings({ organization, userId, onGone }: Props) {
  const isOwner = organization.roleName === 'Owner';
  const [transferOpened, transfer] = useDisclosure(false);
  const [leaveOpened, leave] = useDisclosure(false);
  const [deleteOpened, remove] = useDisclosure(false);
  return (
    <Stack>
      {isOwner && (
        <Section id={`org-${organization.id}-credits`} title="Move credits to this organization" description="Fund the organization’s assistants from your own balance.">
          <MoveCreditsForm organizationId={organization.id} />
        </Section>
      )}
      <Section id={`org-${organization.id}-danger`} title="Danger zone">
        {isOwner ? (
          <Stack gap="md">
            <Group justify="space-between" wrap="nowrap">
              <div>
                <Text fw={500}>Transfer ownership</Text>
                <Text size="sm" c="dimmed">
                  Make another member the Owner; you become an Admin.
                </Text>
              </div>
              <Button color="red" variant="outline" onClick={transfer.open}>
                Transfer ownership
              </Button>
            </Group>
            <Group justify="space-between" wrap="nowrap">
              <div>
                <Text fw={500}>Leave organization</Text>
                <Text size="sm" c="dimmed">
                  As its owner you cannot leave: transfer ownership first, or delete the organization.
                </Text>
              </div>
              <Button color="red" variant="outline" disabled>
                Leave organization
              </Button>
            </Group>
            <Group justify="space-between" wrap="nowrap">
              <div>
                <Text fw={500}>Delete organization</Text>
                <Text size="sm" c="dimmed">
                  Its members, keys, invitations, assistants, projects and credits go with it.
                </Text>
              </div>
              <Button color="red" onClick={remove.open}>
                Delete organization
              </Button>
            </Group>
          </Stack>
        ) : (
          <Group justify="space-between" wrap="nowrap">
            <div>
              <Text fw={500}>Leave organization</Text>
              <Text size="sm" c="dimmed">
                You lose access to it; your own account stays.
              </Text>
            </div>
            <Button color="red" variant="outline" onClick={leave.open}>
              Leave organization
            </Button>
          </Group>
        )}
      </Section>
      <TransferOwnershipModal organization={organization} ownerId={userId} opened={transferOpened} onClose={transfer.close} />
      <LeaveOrganizationModal organization={organization} opened={leaveOpened} onClose={leave.close} onDone={onGone} />
      <DeleteOrganizationModal organization={organization} opened={deleteOpened} onClose={remove.close} onDone={onGone} />
    </Stack>
  );
}
