import { Button, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { PageHeader } from '../../../components/page-header.tsx';
import { SecretReveal } from '../../../components/secret-reveal.tsx';
import { useCreateWithBusinessInfo } from '../api.ts';
import { BusinessForm } from '../components/business-form.tsx';

/** Onboarding a colleague: their account with its classification; their key is shown once. */
export function CreateUserPage() {
  const create = useCreateWithBusinessInfo();
  const [created, setCreated] = useState<{ email: string; key: string } | null>(null);
  return (
    <>
      <PageHeader title="Create a user" description="Create an account for a colleague. Their API key is shown once: hand it over securely." />
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
          <BusinessForm
            withIdentity
            submitLabel="Create user"
            onSubmit={async (values) => {
              const result = await create.mutateAsync(values);
              if (result.api_key) setCreated({ email: values.email ?? '', key: result.api_key });
            }}
          />
        </Paper>
        <Text size="sm" c="dimmed">
          New users start with the sign-up credits of this deployment.
        </Text>
      </Stack>
    </>
  );
}
