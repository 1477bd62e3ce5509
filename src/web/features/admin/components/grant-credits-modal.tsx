import { Alert, Button, Group, Modal, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { CreditGrantInput } from '../../../../shared/admin.ts';
import { adminMutations } from '../../../data/admin.ts';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { useApiMutation } from '../../../lib/mutation.ts';

/** Who receives a grant: a person's personal balance, or an organization's. */
export type GrantTarget =
  { kind: 'user'; userId: string; label: string; credits: number } | { kind: 'organization'; organizationId: number; label: string; credits: number };

const formatCredits = (n: number) => n.toLocaleString(undefined, { maximumFractionDigits: 6 });

/** Grants credits to the target with a reason (required: every grant is kept with it). */
export function GrantCreditsModal({ target, onClose }: { target: GrantTarget; onClose: () => void }) {
  const [amount, setAmount] = useState<number | ''>('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; reason?: string }>({});
  const grant = useApiMutation(adminMutations.grant, {
    onSuccess: (result) => {
      notifications.show({
        color: 'teal',
        message: `Granted ${formatCredits(result.amount)} credits to ${result.recipient}. Their balance is now ${formatCredits(result.balance_after)}.`,
        closeButtonProps: { 'aria-label': 'Dismiss notification' },
      });
      onClose();
    },
    onError: (error) => {
      if (error instanceof ApiError) setErrors({ amount: error.fieldErrors.amount, reason: error.fieldErrors.reason });
    },
  });
  const recipient = target.kind === 'user' ? { user_id: target.userId } : { organization_id: target.organizationId };
  return (
    <Modal opened onClose={onClose} title={`Grant credits to ${target.label}`} centered closeButtonProps={{ 'aria-label': 'Close' }}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const parsed = CreditGrantInput.safeParse({ ...recipient, amount: amount === '' ? undefined : amount, reason });
          if (!parsed.success) {
            const found: { amount?: string; reason?: string } = {};
            for (const issue of parsed.error.issues) {
              const field = issue.path[0];
              if ((field === 'amount' || field === 'reason') && !found[field])
                found[field] = field === 'amount' && amount === '' ? 'Enter how many credits to grant.' : issue.message;
            }
            setErrors(found);
            return;
          }
          setErrors({});
          grant.mutate(parsed.data);
        }}
      >
        <Stack gap="md">
          <Text size="sm">
            {target.kind === 'user' ? 'Their personal balance' : 'The organization’s balance'} is {formatCredits(target.credits)} credits. The grant is recorded with your
            name and the reason.
          </Text>
          <NumberInput
            label="Credits to grant"
            value={amount}
            onChange={(v) => {
              setAmount(typeof v === 'number' ? v : '');
              setErrors((e) => ({ ...e, amount: undefined }));
            }}
            min={0}
            decimalScale={6}
            clampBehavior="none"
            error={errors.amount}
            required
            data-autofocus
          />
          <Textarea
            label="Reason"
            description="Kept with the grant, for the record (e.g. “Pilot for the sales team”)."
            value={reason}
            onChange={(e) => {
              setReason(e.currentTarget.value);
              setErrors((current) => ({ ...current, reason: undefined }));
            }}
            error={errors.reason}
            maxLength={500}
            autosize
            minRows={2}
            required
          />
          {grant.isError && !(grant.error instanceof ApiError && grant.error.status === 422) && (
            <Alert color="red" role="alert">
              {errorMessage(grant.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={grant.isPending}>
              Grant credits
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
