import { Anchor, Badge, Breadcrumbs, Button, Group, Skeleton, Tabs, Text } from '@mantine/core';
import { IconGitCommit, IconHistory, IconTable } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { Context } from '../../../../shared/projects.ts';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { missingPermission, useMe } from '../../../lib/use-me.ts';
import { GatedButton } from '../../../components/gated-button.tsx';
import { projectUrl, useCommit } from '../api.ts';
import { contextQueries } from '../../../data/contexts.ts';
import { ContextBadges } from '../components/context-badges.tsx';
import { CommitMessageModal } from '../components/commit-message-modal.tsx';
import { HistoryPanel } from '../components/history-panel.tsx';
import { LogExplorer } from '../explorer/log-explorer.tsx';
import { plural } from '../model.ts';
import { useWorkspace } from '../../../lib/workspace.ts';

function CommitModal({ project, context, opened, onClose }: { project: string; context: Context; opened: boolean; onClose: () => void }) {
  return (
    <CommitMessageModal
      title={`Commit ${context.name}`}
      intro={`Saves the current rows as a new version (${plural(context.uncommitted_changes, 'changed row')} since the last commit). You can roll back to it later.`}
      description="What changed and why (optional)"
      submitLabel="Commit"
      commit={useCommit(project, context.name)}
      opened={opened}
      onClose={onClose}
    />
  );
}

/** A context: its rows (the log explorer), and for a versioned one its commits, with commit and rollback. */
export function ContextPage() {
  const workspace = useWorkspace();
  const { project = '', context: name = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const me = useMe();
  const context = useQuery(contextQueries.one(project, name));
  const [committing, setCommitting] = useState(false);
  const cannotWrite = missingPermission(me.data, 'project:write');
  const tab = params.get('tab') === 'history' ? 'history' : 'rows';

  const crumbs = (
    <Breadcrumbs mb="xs" aria-label="Breadcrumb">
      <Anchor component={Link} to={workspace.path('/projects')} size="sm">
        Projects
      </Anchor>
      <Anchor component={Link} to={workspace.path(projectUrl(project))} size="sm">
        {project}
      </Anchor>
      <Text size="sm" aria-current="page">
        {name}
      </Text>
    </Breadcrumbs>
  );

  if (context.isPending)
    return (
      <>
        {crumbs}
        <PageHeader title={name} />
        <Skeleton height={240} aria-label="Loading the context" />
      </>
    );
  if (context.isError)
    return (
      <>
        {crumbs}
        <PageHeader title={name} />
        <ErrorAlert error={context.error} onRetry={() => void context.refetch()} />
      </>
    );
  if (!context.data)
    return (
      <>
        {crumbs}
        <PageHeader title={name} />
        <EmptyState
          title="Context not found"
          description={`Project ${project} has no context with this name. It may have been deleted.`}
          action={
            <Button component={Link} to={workspace.path(projectUrl(project))}>
              Back to {project}
            </Button>
          }
        />
      </>
    );

  const c = context.data;
  const pending = c.uncommitted_changes;
  return (
    <>
      {crumbs}
      <PageHeader
        title={<span style={{ wordBreak: 'break-all' }}>{name}</span>}
        description={c.description || undefined}
        actions={
          c.is_versioned ? (
            <GatedButton
              reason={cannotWrite ?? (pending === 0 ? 'Nothing to commit: no changes since the last commit.' : null)}
              icon={<IconGitCommit size={16} aria-hidden />}
              onClick={() => setCommitting(true)}
            >
              Commit
            </GatedButton>
          ) : undefined
        }
      />
      <Group gap="sm" mb="md">
        <ContextBadges context={c} />
        {c.is_versioned &&
          (pending > 0 ? (
            <Badge color="yellow" variant="filled" autoContrast role="status">
              {plural(pending, 'uncommitted change')}
            </Badge>
          ) : (
            <Badge color="gray" variant="light" role="status">
              {c.head_commit_hash ? 'All changes committed' : 'No commits yet'}
            </Badge>
          ))}
        {cannotWrite && (
          <Badge color="gray" variant="light">
            Read-only
          </Badge>
        )}
      </Group>
      {c.is_versioned ? (
        <Tabs
          value={tab}
          onChange={(v) =>
            setParams(
              (prev) => {
                const next = new URLSearchParams(prev);
                if (v === 'history') next.set('tab', 'history');
                else next.delete('tab');
                return next;
              },
              { replace: true },
            )
          }
          keepMounted={false}
        >
          <Tabs.List mb="md">
            <Tabs.Tab value="rows" leftSection={<IconTable size={16} aria-hidden />}>
              Rows
            </Tabs.Tab>
            <Tabs.Tab value="history" leftSection={<IconHistory size={16} aria-hidden />}>
              History
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="rows">
            <LogExplorer project={project} context={c} cannotWrite={cannotWrite} />
          </Tabs.Panel>
          <Tabs.Panel value="history">
            <HistoryPanel project={project} context={c} cannotWrite={cannotWrite} />
          </Tabs.Panel>
        </Tabs>
      ) : (
        <LogExplorer project={project} context={c} cannotWrite={cannotWrite} />
      )}
      <CommitModal project={project} context={c} opened={committing} onClose={() => setCommitting(false)} />
    </>
  );
}
