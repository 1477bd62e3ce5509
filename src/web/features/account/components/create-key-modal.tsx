import { Button, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { SecretReveal } from '../../../components/secret-reveal.tsx';

/**
 * The two steps of creating a key in one dialog: the form, then the key itself, shown once. The key
 * lives only in this dialog's state: closing it forgets the key for good.
 */
export function CreateKeyModal({
  opened,
  onClose,
  title,
  form,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** The form; it calls `reveal` with the new key's name and value once the server has created it. */
  form: (reveal: (created: { name: string; apiKey: string }) => void, close: () => void) => ReactNode;
}) {
  const [created, setCreated] = useState<{ name: string; apiKey: string } | null>(null);
  const close = () => {
    setCreated(null);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={created ? `Key “${created.name}” created` : title} centered size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      {created ? (
        <Stack gap="md">
          <SecretReveal label="Your new API key" value={created.apiKey} note="Copy it now: it is shown only once. Roster keeps only its hash and cannot show it again." />
          <Group justify="flex-end">
            <Button onClick={close} data-autofocus>
              Done
            </Button>
          </Group>
        </Stack>
      ) : (
        form(setCreated, close)
      )}
    </Modal>
  );
}
