import { Button, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { CreateOrganizationInput, type CreatedOrganization } from '../../../../shared/organizations.ts';
import { SecretReveal } from '../../../components/secret-reveal.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useZodForm } from '../../../lib/form.ts';
import { useSession } from '../../../lib/session.ts';
import { useCreateOrganization } from '../api.ts';

// The server's rule for the name, after a request in the dashboard's words for an empty one.
const Schema = z.object({ name: z.string().trim().min(1, 'Enter a name.').pipe(CreateOrganizationInput.shape.name) });

/** Creates an organization, shows its key once, keeps it in the session and offers to switch to it. */
export default function CreateOrganizationModal({ onClose }: { onClose: () => void }) {
  const session = useSession();
  const navigate = useNavigate();
  const [created, setCreated] = useState<CreatedOrganization | null>(null);
  const create = useCreateOrganization();
  const form = useZodForm(Schema, { defaultValues: { name: '' } });

  const submit = form.handleSubmit(async (values) => {
    try {
      const org = await create.mutateAsync(values);
      session.addKey(org.api_key, org.name);
      setCreated(org);
    } catch (err) {
      form.setError('name', { type: 'server', message: errorMessage(err) });
    }
  });

  return (
    <Modal opened onClose={onClose} title="Create organization" closeButtonProps={{ 'aria-label': 'Close' }}>
      {created ? (
        <Stack>
          <Text size="sm">{created.name} was created and you are its Owner. This session keeps its organization key; copy it if you need it elsewhere.</Text>
          <SecretReveal label="Organization API key" value={created.api_key} />
          <Button
            onClick={() => {
              session.switchKey(created.api_key);
              onClose();
              void navigate('/organization');
            }}
          >
            Switch to {created.name}
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
