import { Alert, Button, Code, Group, List, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Commit, Context } from '../../../../shared/projects.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useRollback } from '../api.ts';
import { DIFF_ROW_LIMIT, rowQueries } from '../../../data/rows.ts';
import { diffRows, plural, shortHash } from '../model.ts';

/**
 * Confirms a rollback by saying what it will do: the rows added, removed and changed against what the
 * context holds now, and that uncommitted work is committed first (so the rollback can be undone).
 */
export function RollbackModal({
  project,
  context,
  target,
  forward,
  onClose,
  onDone,
}: {
  project: string;
  context: Context;
  target: Commit | null;
  forward: boolean;
  onClose: () => void;
  onDone: (hash: string) => void;
}) {
  const opened = target !== null;
  const hash = target?.commit_hash ?? '';
  const current = useQuery({ ...rowQueries.every(project, context.name, null), enabled: opened });
  const atTarget = useQuery({ ...rowQueries.every(project, context.name, hash), enabled: opened });
  const rollback = useRollback(project, context.name, forward);
  const verb = forward ? 'Roll forward' : 'Roll back';
  const close = () => {
    rollback.reset();
    onClose();
  };

  let preview;
  if (current.isPending || atTarget.isPending)
    preview = (
      <Group gap="xs" aria-live="polite">
        <Loader size="xs" />
        <Text size="sm">Comparing the rows…</Text>
      </Group>
    );
  else if (current.isError || atTarget.isError)
    preview = (
      <Text size="sm" c="red">
        Could not compare the rows: {errorMessage(current.error ?? atTarget.error)}
      </Text>
    );
  else if (current.data === null || atTarget.data === null)
    preview = (
      <Text size="sm">
        The context will hold the {plural(target?.row_count ?? 0, 'row')} of this commit (too many rows to compare here, over {DIFF_ROW_LIMIT.toLocaleString()}).
      </Text>
    );
  else {
    const diff = diffRows(current.data, atTarget.data);
    const none = !diff.added.length && !diff.removed.length && !diff.changed.length;
    preview = none ? (
      <Text size="sm">The rows will not change: they are the same as in this commit.</Text>
    ) : (
      <div>
        <Text size="sm">Against the current rows, this will:</Text>
        <List size="sm" withPadding>
          {diff.added.length > 0 && <List.Item>bring back {plural(diff.added.length, 'row')}</List.Item>}
          {diff.removed.length > 0 && <List.Item>remove {plural(diff.removed.length, 'row')}</List.Item>}
          {diff.changed.length > 0 && <List.Item>change {plural(diff.changed.length, 'row')}</List.Item>}
        </List>
      </div>
    );
  }

  const pending = context.uncommitted_changes;
  return (
    <Modal opened={opened} onClose={close} title={`${verb} ${context.name}?`} centered closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack gap="sm">
        <Text size="sm">
          {verb} to <Code>{shortHash(hash)}</Code> “{target?.commit_message || 'No message'}”. HEAD moves to that commit and its {plural(target?.row_count ?? 0, 'row')}{' '}
          are restored with their ids. Later commits are kept, so you can come back to them.
        </Text>
        {preview}
        <Alert color={pending ? 'yellow' : 'blue'} variant="light" icon={<IconInfoCircle aria-hidden />}>
          {pending
            ? `Your ${plural(pending, 'uncommitted change')} will first be saved automatically as a commit, so nothing is lost.`
            : 'There are no uncommitted changes; if some are made meanwhile, they are saved as a commit first.'}
        </Alert>
        {rollback.isError && (
          <Alert color="red" role="alert">
            {errorMessage(rollback.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} data-autofocus>
            Cancel
          </Button>
          <Button
            loading={rollback.isPending}
            onClick={() =>
              rollback.mutate(hash, {
                onSuccess: () => {
                  onDone(hash);
                  close();
                },
              })
            }
          >
            {verb}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
