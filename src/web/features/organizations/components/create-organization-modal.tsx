import { Button, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { SecretReveal } from '../../../components/secret-reveal.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.ts';
import type { CreatedOrganization } from '../../../../shared/organizations.ts';
import { useCreateOrganization } from '../api.ts';

/** Creates an organization, shows its key once, keeps it in the session and offers to switch to it. */
export default function CreateOrganizationModal({ onClose }: { onClose: () => void }) {
  const session = useSession();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedOrganization | null>(null);
  const create = useCreateOrganization();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError('Enter a name.');
    try {
      const org = await create.mutateAsync(name.trim());
      session.addKey(org.api_key, org.name);
      setCreated(org);
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <Modal opened onClose={onClose} title="Create organization" closeButtonProps={{ 'aria-label': 'Close' }}>
      {created ? (
        <Stack>
          <Text size="sm">
            {created.name} was created and you are its Owner. This session keeps its organization key; copy it if you need it
            elsewhere.
          </Text>
          <SecretReveal label="Organization API key" value={created.api_key} />
          <Button
            onClick={() => {
              session.switchKey(created.api_key);
              onClose();
              navigate('/organization');
            }}
          >
            Switch to {created.name}
          </Button>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput
              label="Organization name"
              required
              maxLength={100}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={error}
              data-autofocus
            />
            <Button type="submit" loading={create.isPending}>
              Create
            </Button>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
