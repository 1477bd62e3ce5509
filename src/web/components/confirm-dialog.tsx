import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ConfirmRequest } from './confirm-delete.tsx';

/** The confirmation itself; Cancel is focused first so Enter never destroys by accident. */
export default function ConfirmDialog({ request, onClose }: { request: ConfirmRequest; onClose: () => void }) {
  return (
    <Modal opened onClose={onClose} title={request.title} centered closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack gap="md">
        {typeof request.message === 'string' ? <Text size="sm">{request.message}</Text> : request.message}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button
            color="red"
            onClick={() => {
              onClose();
              request.onConfirm();
            }}
          >
            {request.confirmLabel ?? 'Delete'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
