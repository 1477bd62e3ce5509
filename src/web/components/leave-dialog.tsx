import { Button, Group, Modal, Stack, Text } from '@mantine/core';

/** The question before unsaved changes are dropped; Stay is focused first, so Enter and Escape keep them. */
export default function LeaveDialog({ opened, onStay, onLeave }: { opened: boolean; onStay: () => void; onLeave: () => void }) {
  return (
    <Modal opened={opened} onClose={onStay} title="Leave without saving?" centered closeButtonProps={{ 'aria-label': 'Stay on this page' }}>
      <Stack gap="md">
        <Text size="sm">This page has changes that are not saved. If you leave, they are lost.</Text>
        <Group justify="flex-end">
          <Button onClick={onStay} data-autofocus>
            Stay
          </Button>
          <Button color="red" variant="outline" onClick={onLeave}>
            Leave without saving
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
