import { Anchor, Button, NumberInput, Paper, Skeleton, Stack } from '@mantine/core';
import { Link } from 'react-router';
import { NotAllowed } from '../../../components/not-allowed.tsx';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { SecretReveal } from '../../../components/secret-reveal.tsx';
import { useMe } from '../../../lib/use-me.ts';
import { useCreateWithBusinessInfo } from '../api.ts';
import { BusinessForm } from '../components/business-form.tsx';

/** Onboarding a colleague (instance administrators only): their account with its classification; their key is shown once. */
export function CreateUserPage() {
  const me = useMe();
  const create = useCreateWithBusinessInfo();
  const [created, setCreated] = useState<{ email: string; key: string } | null>(null);
  const [credits, setCredits] = useState<number>(0);
  const header = (
    <PageHeader
      title="Create a user"
      description={
        <>
          Create an account for a colleague. Their API key is shown once: hand it over securely.{' '}
          <Anchor component={Link} to="/admin" underline="always">
            Back to Admin
          </Anchor>
        </>
      }
    />
  );
  if (me.isPending) {
    return (
      <>
        {header}
        <Skeleton height={240} maw={880} />
      </>
    );
  }
  if (me.isError) return <ErrorAlert error={me.error} onRetry={() => void me.refetch()} />;
  if (!me.data.is_admin) {
    return (
      <NotAllowed title="Create a user">
        Only the administrators of this Roster instance create accounts for other people: ask one of them to create the account.
      </NotAllowed>
    );
  }
  return (
    <>
      {header}
      <Stack gap="lg" maw={880}>
        {created && (
          <Stack gap="xs">
            <SecretReveal label={`API key for ${created.email}`} value={created.key} />
            <div>
              <Button variant="subtle" onClick={() => setCreated(null)}>
                Done, hide the key
              </Button>
            </div>
          </Stack>
        )}
        <Paper withBorder radius="md" p="lg">
          <Stack gap="md">
            <NumberInput
              label="Starting credits"
              description="Credits the new account starts with (0 unless you give some)."
              min={0}
              max={1_000_000}
              allowNegative={false}
              value={credits}
              onChange={(value) => setCredits(typeof value === 'number' ? value : 0)}
              maw={240}
            />
            <BusinessForm
              withIdentity
              submitLabel="Create user"
              onSubmit={async (values) => {
                const result = await create.mutateAsync({ ...values, credits });
                if (result.api_key) setCreated({ email: values.email ?? '', key: result.api_key });
              }}
            />
          </Stack>
        </Paper>
      </Stack>
    </>
  );
}
