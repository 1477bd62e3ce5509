import { Alert, Button, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { REVOKE_ALL_CONFIRMATION } from '../../../../shared/keys.ts';
import { SecretReveal } from '../../../components/secret-reveal.tsx';
import { apiKeyMutations } from '../../../data/keys.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useApiMutation } from '../../../lib/mutation.ts';

/**
 * "Revoke all my keys" (a leak of unknown extent): every personal and organization key of the person,
 * behind a typed confirmation. The one new personal key is shown once; browser sessions stay signed in.
 */
export function RevokeAllKeys() {
  const [opened, { open, close }] = useDisclosure(false);
  const [typed, setTyped] = useState('');
  const revokeAll = useApiMutation(apiKeyMutations.revokeAll);
  const matches = typed.trim().toLowerCase() === REVOKE_ALL_CONFIRMATION;
  const done = revokeAll.data;
  const finish = () => {
    setTyped('');
    revokeAll.reset();
    close();
  };
  return (
    <Stack gap="sm">
      <Text size="sm">
        Revokes every API key you hold: your personal keys and your organization keys in every organization. Programs using any of them stop working at once. You get one
        new personal key, shown once.
      </Text>
      <Text size="sm" c="dimmed">
        Browser sessions stay signed in (use “Sign out everywhere” to end them). Rotating your personal key alone (<code>npm run roster -- key rotate</code>) leaves
        organization keys working; this does not.
      </Text>
      <div>
        <Button color="red" variant="outline" onClick={open}>
          Revoke all my keys
        </Button>
      </div>
      <Modal
        opened={opened}
        onClose={finish}
        title={done ? 'Every key revoked' : 'Revoke all your keys?'}
        centered
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {done ? (
          <Stack gap="md">
            <Text size="sm">{done.message}</Text>
            <SecretReveal label="Your new personal API key" value={done.api_key} />
            <Button onClick={finish} data-autofocus>
              Done
            </Button>
          </Stack>
        ) : (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (matches) revokeAll.mutate(typed.trim());
            }}
          >
            <Stack gap="sm">
              <Text size="sm">
                Every key you hold stops working, personal and organization ones. Type <strong>{REVOKE_ALL_CONFIRMATION}</strong> to confirm.
              </Text>
              <TextInput label="Confirmation" value={typed} onChange={(e) => setTyped(e.currentTarget.value)} autoComplete="off" data-autofocus />
              {revokeAll.isError && (
                <Alert color="red" role="alert">
                  {errorMessage(revokeAll.error)}
                </Alert>
              )}
              <Button type="submit" color="red" disabled={!matches} loading={revokeAll.isPending}>
                Revoke every key
              </Button>
            </Stack>
          </form>
        )}
      </Modal>
    </Stack>
  );
}
