import { ActionIcon, Anchor, Badge, Group, Paper, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconFolder, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, useDeferredValue, useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state.tsx';
import { GatedButton } from '../../../components/gated-button.tsx';
import { ListSkeleton, QueryList, SearchInput } from '../../../components/list-kit.tsx';
import { MountWhenOpened } from '../../../components/mount-when-opened.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { missingPermission, useMe, workspaceName } from '../../../lib/use-me.ts';
import { useUrlFilter } from '../../../lib/use-url-filter.ts';
import { PermissionGate } from '../../../components/permission-gate.tsx';
import { projectUrl, useDeleteProject } from '../api.ts';
import { projectQueries } from '../../../data/projects.ts';
import { ProjectIcon } from '../components/project-icon.tsx';
import { TypedConfirmModal } from '../components/typed-confirm-modal.tsx';
import { useWorkspace } from '../../../lib/workspace.ts';

// Its form (and zod with the shared schemas) loads when the dialog is first opened, not with the list.
const CreateProjectModal = lazy(async () => ({ default: (await import('../components/create-project-modal.tsx')).CreateProjectModal }));

function ProjectCard({ name, cannotDelete, onDelete }: { name: string; cannotDelete: string | null; onDelete: () => void }) {
  const workspace = useWorkspace();
  const project = useQuery(projectQueries.project(name));
  return (
    <Paper withBorder radius="md" p="md" component="li" aria-label={name}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Group wrap="nowrap" align="flex-start" gap="md" style={{ minWidth: 0 }}>
          <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
            <ProjectIcon name={project.data?.icon} />
          </ThemeIcon>
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Group gap="xs">
              <Anchor component={Link} to={workspace.path(projectUrl(name))} fw={600} style={{ wordBreak: 'break-all' }}>
                {name}
              </Anchor>
              {project.data?.is_versioned && (
                <Badge size="sm" variant="light" color="grape">
                  Versioned
                </Badge>
              )}
            </Group>
            {project.isPending ? (
              <Skeleton height={12} width={240} />
            ) : project.isError ? (
              <Text size="sm" c="red">
                {errorMessage(project.error)}
              </Text>
            ) : (
              <Text size="sm" c="dimmed" lineClamp={2}>
                {project.data.description || 'No description.'}
              </Text>
            )}
          </Stack>
        </Group>
        <PermissionGate reason={cannotDelete}>
          <ActionIcon variant="subtle" color="red" aria-label={`Delete project ${name}`} disabled={!!cannotDelete} onClick={onDelete}>
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        </PermissionGate>
      </Group>
    </Paper>
  );
}

/** The key's projects in their order, with search, create and (typed) delete. */
export function ProjectsPage() {
  const names = useQuery(projectQueries.names());
  const me = useMe();
  const { input: searchInput, setInput: setSearchInput } = useUrlFilter('q');
  const search = useDeferredValue(searchInput);
  const [creating, { open, close }] = useDisclosure(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  const remove = useDeleteProject();
  const cannotWrite = missingPermission(me.data, 'project:write');
  const cannotDelete = missingPermission(me.data, 'project:delete');

  const createButton = (
    <GatedButton reason={cannotWrite} icon={<IconPlus size={16} aria-hidden />} onClick={open}>
      Create project
    </GatedButton>
  );

  const content = (
    <QueryList
      query={names}
      loading={<ListSkeleton rows={3} height={76} label="Loading projects" />}
      empty={
        <EmptyState
          icon={<IconFolder size={24} />}
          title="No projects yet"
          description="A project holds contexts: tables of rows your assistants and scripts log, optionally with a version history."
          action={createButton}
        />
      }
    >
      {(list) => {
        const needle = search.trim().toLowerCase();
        const shown = needle ? list.filter((n) => n.toLowerCase().includes(needle)) : list;
        return (
          <Stack gap="md">
            <SearchInput label="Search projects" placeholder="Filter by name" value={searchInput} onChange={setSearchInput} />
            <Text size="sm" c="dimmed" aria-live="polite">
              {needle ? `${shown.length} of ${list.length} projects match` : `${list.length} project${list.length === 1 ? '' : 's'}`}
            </Text>
            {shown.length === 0 ? (
              <Text>No project name contains “{search.trim()}”.</Text>
            ) : (
              <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Projects">
                {shown.map((name) => (
                  <ProjectCard key={name} name={name} cannotDelete={cannotDelete} onDelete={() => setDeleting(name)} />
                ))}
              </Stack>
            )}
          </Stack>
        );
      }}
    </QueryList>
  );

  return (
    <>
      <PageHeader
        title="Projects"
        description={
          me.data
            ? `Logging projects of your ${workspaceName(me.data) === 'Personal workspace' ? 'personal workspace' : `organization ${workspaceName(me.data)}`}.`
            : 'Logging projects of this workspace.'
        }
        actions={names.data?.length ? createButton : undefined}
      />
      {content}
      <MountWhenOpened opened={creating}>
        <CreateProjectModal opened={creating} onClose={close} />
      </MountWhenOpened>
      <TypedConfirmModal
        opened={deleting !== null}
        onClose={() => {
          setDeleting(null);
          remove.reset();
        }}
        title={`Delete project ${deleting ?? ''}?`}
        message="This deletes the project with all its contexts, rows, version history and dashboards. It cannot be undone."
        name={deleting ?? ''}
        confirmLabel="Delete project"
        pending={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : null}
        onConfirm={() => deleting && remove.mutate(deleting, { onSuccess: () => setDeleting(null) })}
      />
    </>
  );
}
