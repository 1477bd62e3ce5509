import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconGitCommit } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { errorMessage } from '../../../lib/api-client.ts';

/** What committing needs of a mutation: a context's commit and a project's take the same optional message. */
interface CommitMutation {
  mutate: (message: string | null, options: { onSuccess: () => void }) => void;
  reset: () => void;
  isPending: boolean;
  isError: boolean;
  error: unknown;
}

/** Asks for an optional message and commits (a context, or a whole project); closes when the commit is made. */
export function CommitMessageModal({
  title,
  intro,
  description,
  submitLabel,
  commit,
  opened,
  onClose,
}: {
  title: string;
  intro: ReactNode;
  /** Under the message field: what the message is for. */
  description: string;
  submitLabel: string;
  commit: CommitMutation;
  opened: boolean;
  onClose: () => void;
}) {
  const [message, setMessage] = useState('');
  const close = () => {
    setMessage('');
    commit.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={title} centered closeButtonProps={{ 'aria-label': 'Close' }}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          commit.mutate(message.trim() || null, { onSuccess: close });
        }}
      >
        <Stack gap="sm">
          <Text size="sm">{intro}</Text>
          <Textarea
            label="Commit message"
            description={description}
            autosize
            minRows={2}
            maxLength={1000}
            value={message}
            onChange={(e) => setMessage(e.currentTarget.value)}
            data-autofocus
          />
          {commit.isError && (
            <Alert color="red" role="alert">
              {errorMessage(commit.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={commit.isPending} leftSection={<IconGitCommit size={16} aria-hidden />}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
