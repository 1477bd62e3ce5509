import { ActionIcon, Anchor, Badge, Box, Breadcrumbs, Button, Chip, Group, Loader, Skeleton, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronDown, IconChevronRight, IconFilter, IconFolder, IconPlus, IconTable, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, useId, useMemo, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { confirmDelete } from '../../../components/confirm-delete.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { MountWhenOpened } from '../../../components/mount-when-opened.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { missingPermission, useMe } from '../../../lib/use-me.ts';
import { useUrlFilter } from '../../../lib/use-url-filter.ts';
import { PermissionGate } from '../../../components/permission-gate.tsx';
import { GatedButton } from '../../../components/gated-button.tsx';
import { useDeferredQuery } from '../../../lib/use-deferred-query.ts';
import { contextUrl, useDeleteContext } from '../api.ts';
import { contextQueries } from '../../../data/contexts.ts';
import { projectQueries } from '../../../data/projects.ts';
import { ContextBadges } from '../components/context-badges.tsx';
import { ProjectHistory } from '../components/project-history.tsx';
import { ProjectIcon } from '../components/project-icon.tsx';
import { VirtualList } from '../components/virtual-list.tsx';
import { contextTree, plural, type TreeLine } from '../model.ts';
import { useWorkspace } from '../../../lib/workspace.ts';

const LINE = 48;

type FilterMode = 'search' | 'prefix';
/** The two ways of filtering names: the search extension (anywhere, any case) and the spec's literal prefix. */
const MODES: Record<FilterMode, { label: string; placeholder: string; matching: string; none: string }> = {
  search: { label: 'Search context names', placeholder: 'e.g. eval', matching: 'containing', none: 'contains' },
  prefix: { label: 'Filter by name prefix', placeholder: 'e.g. runs/2024', matching: 'starting with', none: 'starts with' },
};

// Its form (and zod with the shared schemas) loads when the dialog is first opened, not with the list.
const CreateContextModal = lazy(async () => ({ default: (await import('../components/create-context-modal.tsx')).CreateContextModal }));

/** A project: its contexts as a tree (folders from "/" in names), filtered by name (contains, or starts with) kept in the URL. */
export function ProjectPage() {
  const workspace = useWorkspace();
  const { project: name = '' } = useParams();
  const navigate = useNavigate();
  // "Contains" (the search extension) unless the address asks for the spec's literal prefix.
  const [params, setParams] = useSearchParams();
  const [mode, setMode] = useState<FilterMode>(params.has('prefix') ? 'prefix' : 'search');
  const matchName = useId();
  const { input: filterInput, setInput: setFilterInput, value: filterText } = useUrlFilter(mode);
  const switchMode = (next: FilterMode) => {
    setMode(next);
    // The text moves to the other parameter (the filter hook follows its URL parameter).
    setParams(
      (current) => {
        const moved = new URLSearchParams(current);
        moved.delete(mode);
        if (filterText) moved.set(next, filterText);
        return moved;
      },
      { replace: true },
    );
  };
  const prefix = mode === 'prefix' ? filterText : '';
  const [closed, setClosed] = useState<Set<string>>(() => new Set());
  const [creating, { open, close }] = useDisclosure(false);
  const me = useMe();
  const project = useQuery(projectQueries.project(name));
  const contexts = useDeferredQuery({ ...contextQueries.list(name, { [mode]: filterText }), enabled: project.isSuccess });
  const remove = useDeleteContext(name);
  const cannotWrite = missingPermission(me.data, 'project:write');
  const cannotDelete = missingPermission(me.data, 'project:delete');

  const lines = useMemo(() => contextTree(contexts.data ?? [], closed), [contexts.data, closed]);
  const toggle = (path: string) =>
    setClosed((prev) => {
      const next = new Set(prev);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });

  if (project.isError) {
    const missing = project.error instanceof ApiError && project.error.status === 404;
    return (
      <>
        <PageHeader title={name} />
        {missing ? (
          <EmptyState
            title="Project not found"
            description="There is no project with this name in the current workspace. It may have been deleted, or it belongs to another workspace."
            action={
              <Button component={Link} to={workspace.path('/projects')}>
                All projects
              </Button>
            }
          />
        ) : (
          <ErrorAlert error={project.error} onRetry={() => void project.refetch()} />
        )}
      </>
    );
  }

  const createButton = (
    <GatedButton reason={cannotWrite} icon={<IconPlus size={16} aria-hidden />} onClick={open} disabled={!project.data}>
      Create context
    </GatedButton>
  );

  const renderLine = (line: TreeLine) => {
    const indent = line.depth * 20;
    if (line.kind === 'folder') {
      return (
        <UnstyledButton
          onClick={() => toggle(line.path)}
          aria-expanded={line.open}
          h={LINE}
          w="100%"
          pl={indent + 8}
          pr="sm"
          style={{ display: 'flex', alignItems: 'center', gap: 8, borderBottom: '1px solid var(--mantine-color-default-border)' }}
        >
          {line.open ? <IconChevronDown size={16} aria-hidden /> : <IconChevronRight size={16} aria-hidden />}
          <IconFolder size={18} aria-hidden />
          <Text fw={500}>{line.label}/</Text>
          <Text size="sm" c="dimmed">
            {plural(line.count, 'context')}
          </Text>
        </UnstyledButton>
      );
    }
    const c = line.context;
    return (
      <Group h={LINE} pl={indent + 32} pr="sm" gap="sm" wrap="nowrap" justify="space-between" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, overflow: 'hidden' }}>
          <IconTable size={18} aria-hidden style={{ flexShrink: 0 }} />
          <Anchor component={Link} to={workspace.path(contextUrl(name, c.name))} fw={500} truncate="end" aria-label={c.name} title={c.name}>
            {line.label}
          </Anchor>
          <Box visibleFrom="sm">
            <ContextBadges context={c} size="xs" />
          </Box>
          {c.uncommitted_changes > 0 && (
            <Badge size="xs" color="yellow" variant="filled" autoContrast>
              {plural(c.uncommitted_changes, 'uncommitted change')}
            </Badge>
          )}
        </Group>
        <PermissionGate reason={cannotDelete}>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Delete context ${c.name}`}
            disabled={!!cannotDelete}
            onClick={() =>
              confirmDelete({
                title: `Delete context ${c.name}?`,
                message: 'Its rows and its whole version history are deleted. Dashboard tiles that show it will have nothing to show.',
                confirmLabel: 'Delete context',
                onConfirm: () => remove.mutate(c.name),
              })
            }
          >
            <IconTrash size={16} aria-hidden />
          </ActionIcon>
        </PermissionGate>
      </Group>
    );
  };

  let content;
  if (project.isPending || contexts.isPending)
    content = (
      <Stack gap={6} aria-busy="true" aria-label="Loading contexts">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} height={LINE - 8} />
        ))}
      </Stack>
    );
  else if (contexts.isError) content = <ErrorAlert error={contexts.error} onRetry={() => void contexts.refetch()} />;
  else if (contexts.data.length === 0 && !filterText)
    content = (
      <EmptyState
        icon={<IconTable size={24} />}
        title="No contexts yet"
        description="A context is a table of rows (logs) with its own rules: unique keys, duplicates, counters and, when versioned, a commit history."
        action={createButton}
      />
    );
  else
    content = (
      <Stack gap="xs">
        <Text size="sm" c="dimmed" aria-live="polite">
          {filterText ? `${plural(contexts.data.length, 'context')} ${MODES[mode].matching} “${filterText}”` : plural(contexts.data.length, 'context')}
        </Text>
        {contexts.data.length === 0 ? (
          <Text>
            No context name {MODES[mode].none} “{filterText}”.
          </Text>
        ) : (
          <Box style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden' }}>
            <VirtualList
              items={lines}
              lineHeight={LINE}
              maxHeight={LINE * 14}
              label={`Contexts of ${name}`}
              itemKey={(l) => (l.kind === 'folder' ? `f:${l.path}` : `c:${l.context.name}`)}
              renderItem={renderLine}
            />
          </Box>
        )}
      </Stack>
    );

  return (
    <>
      <Breadcrumbs mb="xs" aria-label="Breadcrumb">
        <Anchor component={Link} to={workspace.path('/projects')} size="sm">
          Projects
        </Anchor>
        <Text size="sm" aria-current="page">
          {name}
        </Text>
      </Breadcrumbs>
      <PageHeader
        title={
          <Group gap="sm" component="span">
            <ProjectIcon name={project.data?.icon} size={28} />
            <span style={{ wordBreak: 'break-all' }}>{name}</span>
            {project.data?.is_versioned && (
              <Badge variant="light" color="grape">
                Versioned
              </Badge>
            )}
          </Group>
        }
        description={
          project.data ? project.data.description || 'Contexts of this project.' : <Skeleton height={14} width={240} component="span" display="inline-block" />
        }
        actions={createButton}
      />
      <Group mb="md" align="flex-end">
        <TextInput
          label={MODES[mode].label}
          placeholder={MODES[mode].placeholder}
          leftSection={<IconFilter size={16} aria-hidden />}
          rightSection={contexts.isFetching && !contexts.isPending ? <Loader size={14} aria-label="Filtering" /> : null}
          value={filterInput}
          onChange={(e) => setFilterInput(e.currentTarget.value)}
          w={320}
        />
        {/* Chips, not a SegmentedControl: its sliding indicator measures the page's layout when it mounts, a
            forced layout of ~12 ms on this machine inside the commit that shows the page (~50 ms of
            Lighthouse's blocking time). Radios of one name: arrow keys move between them. */}
        <Chip.Group multiple={false} value={mode} onChange={(value) => switchMode(value as FilterMode)}>
          <Group gap="xs" role="radiogroup" aria-label="Match names" pb={2}>
            <Chip value="search" name={matchName}>
              Contains
            </Chip>
            <Chip value="prefix" name={matchName}>
              Starts with
            </Chip>
          </Group>
        </Chip.Group>
      </Group>
      {content}
      {project.data && <ProjectHistory project={name} cannotWrite={cannotWrite} />}
      <MountWhenOpened opened={creating}>
        <CreateContextModal
          project={name}
          projectVersioned={!!project.data?.is_versioned}
          initialName={prefix && prefix.endsWith('/') ? prefix : undefined}
          opened={creating}
          onClose={close}
          onCreated={(created) => void navigate(workspace.path(contextUrl(name, created)))}
        />
      </MountWhenOpened>
    </>
  );
}
