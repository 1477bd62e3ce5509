import { Alert, Anchor, Button, Group, NumberInput, Skeleton, Stack, Switch, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { useUnsavedChanges } from '../../../components/leave-guard.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { accountQueries } from '../../../data/account.ts';
import { useSetSpendingLimit } from '../api.ts';
import { useWorkspace } from '../../../lib/workspace.ts';

const money = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });

/** The monthly cap on personal usage; lowering it caps personal assistants above it. */
export function SpendingLimitSection({ personalKey }: { personalKey: boolean }) {
  const limit = useQuery({ ...accountQueries.spendingLimit(), enabled: personalKey });
  if (!personalKey) {
    return <Text c="dimmed">The spending limit applies to personal usage. Switch to your personal workspace to change it.</Text>;
  }
  if (limit.isPending) return <Skeleton height={90} />;
  if (limit.isError) return <ErrorAlert error={limit.error} onRetry={() => void limit.refetch()} />;
  return <SpendingLimitForm current={limit.data.monthly_spending_cap} />;
}

function SpendingLimitForm({ current }: { current: number | null }) {
  const workspace = useWorkspace();
  const [noLimit, setNoLimit] = useState(current === null);
  const [amount, setAmount] = useState<number | string>(current ?? '');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const save = useSetSpendingLimit();
  useUnsavedChanges(noLimit !== (current === null) || (!noLimit && amount !== (current ?? '')));

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setFieldError(null);
    const value = noLimit ? null : typeof amount === 'number' ? amount : Number.NaN;
    if (value !== null && (!Number.isFinite(value) || value < 0)) {
      setFieldError('Enter an amount of 0 or more, or choose "No limit".');
      return;
    }
    save.mutate(value, {
      onError: (error) => setFieldError(error instanceof ApiError ? (error.fieldErrors.monthly_spending_cap ?? error.detail) : errorMessage(error)),
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">
          Current limit: <strong>{current === null ? 'no limit' : `${money.format(current)} per month`}</strong>
        </Text>
        <Switch label="No limit" checked={noLimit} onChange={(e) => setNoLimit(e.currentTarget.checked)} />
        <NumberInput
          label="Monthly spending limit (USD)"
          description="Personal assistants with a higher limit are lowered to this amount."
          min={0}
          decimalScale={2}
          thousandSeparator=","
          prefix="$"
          disabled={noLimit}
          value={amount}
          onChange={setAmount}
          error={fieldError}
          maw={320}
        />
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save limit
          </Button>
        </Group>
        {save.isSuccess && (
          <Alert color="teal" role="status" title="Spending limit saved">
            {save.data.assistants_capped === 0 ? (
              'No assistant needed capping.'
            ) : (
              <>
                {save.data.assistants_capped === 1 ? '1 assistant was' : `${save.data.assistants_capped} assistants were`} capped to the new limit.{' '}
                <Anchor component={Link} to={workspace.path('/assistants')} underline="always" c="inherit" fw={600}>
                  See your assistants
                </Anchor>
              </>
            )}
          </Alert>
        )}
      </Stack>
    </form>
  );
}
