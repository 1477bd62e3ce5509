import { Alert, Badge, Button, Code, Group, List, Modal, Paper, Skeleton, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconGitCommit, IconHistory, IconInfoCircle, IconRestore } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Context, ProjectCommit } from '../../../../shared/projects.ts';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { TableScroll } from '../../../components/list-kit.tsx';
import { GatedButton } from '../../../components/gated-button.tsx';
import { PermissionGate } from '../../../components/permission-gate.tsx';
import { projectCommitQueries } from '../../../data/commits.ts';
import { contextQueries } from '../../../data/contexts.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useCommitProject, useRollbackProject } from '../api.ts';
import { plural, shortHash } from '../model.ts';
import { CommitMessageModal } from './commit-message-modal.tsx';
import { formatTime } from './commit-graph.tsx';

const pendingOf = (contexts: Context[]) => contexts.reduce((n, c) => n + c.uncommitted_changes, 0);

/** What restoring `commit` does to each versioned context, from what the contexts hold now. */
export function restorePlan(commit: ProjectCommit, contexts: Context[]) {
  const versioned = contexts.filter((c) => c.is_versioned);
  const byName = new Map(versioned.map((c) => [c.name, c]));
  const held = new Set(commit.contexts.map((c) => c.name));
  const changing = commit.contexts.filter((c) => {
    const now = byName.get(c.name);
    return !now || now.head_commit_hash !== c.commit_hash || now.uncommitted_changes > 0;
  });
  return {
    changing: changing.map((c) => c.name),
    unchanged: commit.contexts.filter((c) => !changing.includes(c)).map((c) => c.name),
    untouched: versioned.filter((c) => !held.has(c.name)).map((c) => c.name),
    pending: pendingOf(versioned),
  };
}

function NameList({ names }: { names: string[] }) {
  const shown = names.slice(0, 8);
  return (
    <List size="sm" withPadding>
      {shown.map((n) => (
        <List.Item key={n}>
          <Code>{n}</Code>
        </List.Item>
      ))}
      {names.length > shown.length && <List.Item>and {plural(names.length - shown.length, 'more context')}</List.Item>}
    </List>
  );
}

function CommitProjectModal({ project, versioned, opened, onClose }: { project: string; versioned: Context[]; opened: boolean; onClose: () => void }) {
  const changed = versioned.filter((c) => c.uncommitted_changes > 0 || !c.head_commit_hash).length;
  return (
    <CommitMessageModal
      title={`Commit project ${project}`}
      intro={
        <>
          Saves all {plural(versioned.length, 'versioned context')} together as one project version:{' '}
          {changed > 0 ? `${plural(changed, 'context')} with changes get a new commit, ` : 'none has uncommitted changes, so '}
          the others are kept at their current commit. Unversioned contexts are not part of it.
        </>
      }
      description="What this version of the project is (optional)"
      submitLabel="Commit project"
      commit={useCommitProject(project)}
      opened={opened}
      onClose={onClose}
    />
  );
}

/** Confirms a project restore by naming the contexts it changes, those already as they were, and those it leaves alone. */
function RestoreProjectModal({ project, contexts, target, onClose }: { project: string; contexts: Context[]; target: ProjectCommit | null; onClose: () => void }) {
  const rollback = useRollbackProject(project);
  const close = () => {
    rollback.reset();
    onClose();
  };
  const plan = target ? restorePlan(target, contexts) : null;
  return (
    <Modal opened={target !== null} onClose={close} title={`Restore project ${project}?`} centered closeButtonProps={{ 'aria-label': 'Close' }}>
      {target && plan && (
        <Stack gap="sm">
          <Text size="sm">
            Restore to <Code>{shortHash(target.commit_hash)}</Code> “{target.commit_message || 'No message'}”: every context it holds goes back (or forward) to its
            version in that commit, all at once or not at all. Later commits are kept, so you can come back to them.
          </Text>
          {plan.changing.length > 0 ? (
            <div>
              <Text size="sm" fw={500}>
                {plural(plan.changing.length, 'context')} will change:
              </Text>
              <NameList names={plan.changing} />
            </div>
          ) : (
            <Text size="sm">No context will change: they are all as in this commit.</Text>
          )}
          {plan.unchanged.length > 0 && (
            <Text size="sm" c="dimmed">
              Already as in this commit: {plan.unchanged.join(', ')}.
            </Text>
          )}
          {plan.untouched.length > 0 && (
            <Text size="sm" c="dimmed">
              Not in this commit, left as they are: {plan.untouched.join(', ')}.
            </Text>
          )}
          <Alert color={plan.pending ? 'yellow' : 'blue'} variant="light" icon={<IconInfoCircle aria-hidden />}>
            {plan.pending
              ? `Your ${plural(plan.pending, 'uncommitted change')} will first be saved automatically as a project commit, so nothing is lost.`
              : 'Unversioned contexts are never changed. Uncommitted changes made meanwhile are saved as a project commit first.'}
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
              leftSection={<IconRestore size={16} aria-hidden />}
              onClick={() => rollback.mutate(target.commit_hash, { onSuccess: close })}
            >
              Restore
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** The project page's history: project commits newest first, committing the project, and restoring one. */
export function ProjectHistory({ project, cannotWrite }: { project: string; cannotWrite: string | null }) {
  const commits = useQuery(projectCommitQueries.list(project));
  const contexts = useQuery(contextQueries.list(project));
  const [committing, setCommitting] = useState(false);
  const [restoring, setRestoring] = useState<ProjectCommit | null>(null);
  const versioned = (contexts.data ?? []).filter((c) => c.is_versioned);
  const pending = pendingOf(versioned);
  const noneVersioned = contexts.isSuccess && versioned.length === 0 ? 'No versioned context to commit: create a versioned context first.' : null;

  let content;
  if (commits.isPending || contexts.isPending)
    content = (
      <Stack gap={6} aria-busy="true" aria-label="Loading project history">
        <Skeleton height={36} />
        <Skeleton height={36} />
      </Stack>
    );
  else if (commits.isError || contexts.isError)
    content = (
      <ErrorAlert
        error={commits.error ?? contexts.error}
        onRetry={() => {
          void commits.refetch();
          void contexts.refetch();
        }}
      />
    );
  else if (commits.data.length === 0)
    content = (
      <EmptyState
        icon={<IconHistory size={24} />}
        title="No project commits yet"
        description={
          versioned.length > 0
            ? 'Commit the project to save all its versioned contexts together, as one version you can restore in one step.'
            : 'Project commits save the versioned contexts of a project together. This project has none yet.'
        }
      />
    );
  else
    content = (
      <TableScroll minWidth={560}>
        <Table verticalSpacing="xs" highlightOnHover aria-label={`Project commits of ${project}, newest first`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Commit</Table.Th>
              <Table.Th scope="col">Contexts</Table.Th>
              <Table.Th scope="col">Created</Table.Th>
              <Table.Th scope="col">
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {commits.data.map((c) => (
              <Table.Tr key={c.commit_hash}>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Text size="sm" fw={500} lineClamp={1} title={c.commit_message ?? undefined}>
                      {c.commit_message || 'No message'}
                    </Text>
                    {c.is_head && (
                      <Badge size="sm" color="teal.9" variant="filled">
                        HEAD
                      </Badge>
                    )}
                  </Group>
                  <Code fz="xs">{shortHash(c.commit_hash)}</Code>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" lineClamp={1} title={c.contexts.map((x) => x.name).join(', ')}>
                    {c.contexts.length === 0 ? 'None left' : c.contexts.map((x) => x.name).join(', ')}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                    {formatTime(c.created_at)}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">
                  <PermissionGate reason={cannotWrite}>
                    <Button
                      size="xs"
                      variant="light"
                      disabled={!!cannotWrite || c.contexts.length === 0}
                      leftSection={<IconRestore size={14} aria-hidden />}
                      aria-label={`Restore project commit ${shortHash(c.commit_hash)}`}
                      onClick={() => setRestoring(c)}
                    >
                      Restore
                    </Button>
                  </PermissionGate>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
    );

  return (
    <Paper withBorder radius="md" p="md" mt="xl" component="section" aria-labelledby="project-history-title">
      <Group justify="space-between" align="flex-start" mb="xs">
        <Stack gap={2}>
          <Title order={2} size="h4" id="project-history-title">
            Project history
          </Title>
          <Text size="sm" c="dimmed">
            Versions of all the versioned contexts at once.
            {pending > 0 && ` ${plural(pending, 'uncommitted change')} across the contexts.`}
          </Text>
        </Stack>
        <GatedButton
          reason={cannotWrite ?? noneVersioned}
          icon={<IconGitCommit size={16} aria-hidden />}
          onClick={() => setCommitting(true)}
          disabled={!contexts.isSuccess}
        >
          Commit project
        </GatedButton>
      </Group>
      {content}
      <CommitProjectModal project={project} versioned={versioned} opened={committing} onClose={() => setCommitting(false)} />
      <RestoreProjectModal project={project} contexts={contexts.data ?? []} target={restoring} onClose={() => setRestoring(null)} />
    </Paper>
  );
}
