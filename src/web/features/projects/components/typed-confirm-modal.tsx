import { Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { ModalFormFooter } from '../../../components/modal-form-footer.tsx';

/** A destructive confirmation that needs the thing's name typed, for deletions that take a lot with them. */
export function TypedConfirmModal({
  opened,
  onClose,
  title,
  message,
  name,
  confirmLabel,
  onConfirm,
  pending,
  error,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  message: ReactNode;
  name: string;
  confirmLabel: string;
  onConfirm: () => void;
  pending?: boolean;
  error?: string | null;
}) {
  const [typed, setTyped] = useState('');
  const close = () => {
    setTyped('');
    onClose();
  };
  const matches = typed.trim() === name;
  return (
    <Modal opened={opened} onClose={close} title={title} centered closeButtonProps={{ 'aria-label': 'Close' }}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (matches) onConfirm();
        }}
      >
        <Stack gap="sm">
          {typeof message === 'string' ? <Text size="sm">{message}</Text> : message}
          <TextInput
            label={`Type ${name} to confirm`}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            autoComplete="off"
            spellCheck={false}
            data-autofocus
          />
          <ModalFormFooter error={error} onCancel={close} submitLabel={confirmLabel} submitting={!!pending} submitColor="red" submitDisabled={!matches} />
        </Stack>
      </form>
    </Modal>
  );
}
