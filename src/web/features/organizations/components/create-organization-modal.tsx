import { Button, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { z } from 'zod';
import { CreateOrganizationInput, type CreatedOrganization } from '../../../../shared/organizations.ts';
import { SecretReveal } from '../../../components/secret-reveal.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useZodForm } from '../../../lib/form.ts';
import { workspacePath } from '../../../../shared/pages.ts';
import { useCreateOrganization } from '../api.ts';

// The server's rule for the name, after a request in the dashboard's words for an empty one.
const Schema = z.object({ name: z.string().trim().min(1, 'Enter a name.').pipe(CreateOrganizationInput.shape.name) });

/**
 * Creates an organization and offers to open its workspace. The owner's organization key the server makes
 * is shown once, for scripts: the dashboard acts there by the person's membership, not by that key.
 */
export default function CreateOrganizationModal({ onClose }: { onClose: () => void }) {
  const [created, setCreated] = useState<CreatedOrganization | null>(null);
  const create = useCreateOrganization();
  const form = useZodForm(Schema, { defaultValues: { name: '' } });

  const submit = form.handleSubmit(async (values) => {
    try {
      setCreated(await create.mutateAsync(values));
    } catch (err) {
      form.setError('name', { type: 'server', message: errorMessage(err) });
    }
  });

  return (
    <Modal opened onClose={onClose} title="Create organization" closeButtonProps={{ 'aria-label': 'Close' }}>
      {created ? (
        <Stack>
          <Text size="sm">
            {created.name} was created and you are its Owner. Its organization API key is for scripts (the dashboard does not need it); copy it now if you want it, it is
            not shown again.
          </Text>
          <SecretReveal label="Organization API key" value={created.api_key} />
          <Button component={Link} to={workspacePath(created.id, '/organization')} onClick={onClose}>
            Open {created.name}
          </Button>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput label="Organization name" required maxLength={100} error={form.formState.errors.name?.message} data-autofocus {...form.register('name')} />
            <Button type="submit" loading={create.isPending}>
              Create
            </Button>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
