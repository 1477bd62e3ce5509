import { Button, Group, Select, Skeleton, Stack, Tabs, Text, TextInput, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconFileImport, IconLayoutDashboard, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import type { Interface, Tab, Tile } from '../../../../shared/tiles.ts';
import { confirmDelete } from '../../../components/confirm-delete.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { missingPermission, useMe } from '../../../lib/use-me.ts';
import { projectQueries } from '../../../data/projects.ts';
import { tileQueries } from '../../../data/tiles.ts';
import { FIRST_DASHBOARD, useCreateFirstDashboard, useCreateInterface, useCreateTab, useDeleteTab } from '../api.ts';
import { ExportModal } from '../components/export-modal.tsx';
import { ImportModal } from '../components/import-modal.tsx';
import { PositionModal } from '../components/position-modal.tsx';
import { TileGrid } from '../components/tile-grid.tsx';
import { TileModal, type TileModalTarget } from '../components/tile-modal.tsx';

/** A one-field inline form (new dashboard, new tab): small enough not to need a dialog. */
function InlineCreate({
  label,
  placeholder,
  pending,
  disabledReason,
  onCreate,
}: {
  label: string;
  placeholder: string;
  pending: boolean;
  disabledReason: string | null;
  onCreate: (name: string) => Promise<unknown>;
}) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!value.trim()) return setError('Enter a name.');
    try {
      await onCreate(value.trim());
      setValue('');
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <form onSubmit={submit}>
      <Group gap="xs" align="flex-start" wrap="nowrap">
        <TextInput
          aria-label={label}
          placeholder={placeholder}
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          error={error}
          maxLength={100}
          size="xs"
          disabled={disabledReason !== null}
        />
        <Tooltip label={disabledReason} disabled={disabledReason === null}>
          <Button type="submit" size="xs" variant="light" loading={pending} disabled={disabledReason !== null} leftSection={<IconPlus size={14} aria-hidden />}>
            {label}
          </Button>
        </Tooltip>
      </Group>
    </form>
  );
}

function ProjectDashboards({ project }: { project: string }) {
  const [params, setParams] = useSearchParams();
  const interfaces = useQuery(tileQueries.interfaces(project));
  const me = useMe();
  const cannotWrite = missingPermission(me.data, 'project:write');
  const createInterface = useCreateInterface(project);
  const createTab = useCreateTab(project);
  const deleteTab = useDeleteTab(project);
  const createFirst = useCreateFirstDashboard(project);
  const [tileTarget, setTileTarget] = useState<TileModalTarget | null>(null);
  const [importOpen, importHandlers] = useDisclosure(false);
  const [exporting, setExporting] = useState<Tile | null>(null);
  const [moving, setMoving] = useState<Tile | null>(null);

  const list = interfaces.data ?? [];
  const current: Interface | undefined = list.find((i) => i.id === params.get('interface')) ?? list[0];
  const tab: Tab | undefined = current?.tabs.find((t) => t.id === params.get('tab')) ?? current?.tabs[0];
  const highlight = params.get('tile');

  const setParam = (changes: Record<string, string | null>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(changes)) {
          if (v === null) next.delete(k);
          else next.set(k, v);
        }
        return next;
      },
      { replace: true },
    );

  if (interfaces.isPending) {
    return (
      <Stack aria-busy="true" aria-label="Loading dashboards">
        <Skeleton height={32} width={320} />
        <Skeleton height={36} />
        <Skeleton height={240} />
      </Stack>
    );
  }
  if (interfaces.isError) return <ErrorAlert error={interfaces.error} onRetry={() => void interfaces.refetch()} />;

  const importButton = (
    <Tooltip label={cannotWrite} disabled={cannotWrite === null}>
      <Button variant="default" leftSection={<IconFileImport size={16} aria-hidden />} onClick={importHandlers.open} disabled={cannotWrite !== null}>
        Import template
      </Button>
    </Tooltip>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Group gap="sm" wrap="wrap">
          {list.length > 0 && (
            <Select
              label="Dashboard"
              data={list.map((i) => ({ value: i.id, label: i.name }))}
              value={current?.id ?? null}
              onChange={(v) => setParam({ interface: v, tab: null, tile: null })}
              allowDeselect={false}
              w={220}
            />
          )}
        </Group>
        <Group gap="sm" align="flex-end">
          <InlineCreate
            label="New dashboard"
            placeholder="Dashboard name"
            pending={createInterface.isPending}
            disabledReason={cannotWrite}
            onCreate={async (name) => {
              const created = await createInterface.mutateAsync(name);
              setParam({ interface: created.id, tab: null, tile: null });
            }}
          />
          {importButton}
        </Group>
      </Group>

      {list.length === 0 || !current ? (
        <EmptyState
          icon={<IconLayoutDashboard size={24} />}
          title="No dashboards in this project yet"
          description={`Start with a dashboard ${FIRST_DASHBOARD.name} and its tab ${FIRST_DASHBOARD.tab}, then add tiles to it; or import a tile template.`}
          action={
            <Tooltip label={cannotWrite} disabled={cannotWrite === null}>
              <Button
                leftSection={<IconPlus size={16} aria-hidden />}
                loading={createFirst.isPending}
                disabled={cannotWrite !== null}
                onClick={() =>
                  createFirst.mutate(
                    { name: FIRST_DASHBOARD.name, tab: FIRST_DASHBOARD.tab },
                    { onSuccess: ({ dashboard, tab: first }) => setParam({ interface: dashboard.id, tab: first.id, tile: null }) },
                  )
                }
              >
                Create a dashboard
              </Button>
            </Tooltip>
          }
        />
      ) : (
        <>
          <Tabs value={tab?.id ?? null} onChange={(v) => setParam({ tab: v, tile: null })} keepMounted={false}>
            <Group justify="space-between" wrap="wrap" align="flex-end" gap="sm">
              <Tabs.List aria-label={`Tabs of ${current.name}`}>
                {current.tabs.map((t) => (
                  <Tabs.Tab key={t.id} value={t.id}>
                    {t.name}
                  </Tabs.Tab>
                ))}
              </Tabs.List>
              <InlineCreate
                label="Add tab"
                placeholder="Tab name"
                pending={createTab.isPending}
                disabledReason={cannotWrite}
                onCreate={async (name) => {
                  const created = await createTab.mutateAsync({ interfaceId: current.id, name });
                  setParam({ tab: created.id, tile: null });
                }}
              />
            </Group>
            {current.tabs.map((t) => (
              <Tabs.Panel key={t.id} value={t.id} pt="md">
                <Group justify="space-between" mb="sm">
                  <Text size="sm" c="dimmed">
                    {t.tiles.length === 1 ? '1 tile' : `${t.tiles.length} tiles`} on a 12-column grid
                  </Text>
                  <Group gap="xs">
                    <Tooltip label={cannotWrite} disabled={cannotWrite === null}>
                      <Button
                        size="xs"
                        leftSection={<IconPlus size={14} aria-hidden />}
                        onClick={() => setTileTarget({ kind: 'add', tab: t })}
                        disabled={cannotWrite !== null}
                      >
                        Add tile
                      </Button>
                    </Tooltip>
                    <Tooltip label={cannotWrite} disabled={cannotWrite === null}>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        leftSection={<IconTrash size={14} aria-hidden />}
                        disabled={cannotWrite !== null}
                        onClick={() =>
                          confirmDelete({
                            title: `Delete tab ${t.name}?`,
                            message: `The tab and its ${t.tiles.length} tile(s) are deleted. The contexts and their rows stay.`,
                            confirmLabel: 'Delete tab',
                            onConfirm: () => deleteTab.mutate(t, { onSuccess: () => setParam({ tab: null, tile: null }) }),
                          })
                        }
                      >
                        Delete tab
                      </Button>
                    </Tooltip>
                  </Group>
                </Group>
                {t.tiles.length === 0 ? (
                  <EmptyState title="This tab has no tiles" description="Add a table or a plot of one of the project's contexts, or import a tile template." />
                ) : (
                  <TileGrid
                    project={project}
                    tiles={t.tiles}
                    highlight={highlight}
                    cannotWrite={cannotWrite}
                    onExport={setExporting}
                    onMove={setMoving}
                    onEdit={(tile) => setTileTarget({ kind: 'edit', tile })}
                  />
                )}
              </Tabs.Panel>
            ))}
          </Tabs>
          {current.tabs.length === 0 && <EmptyState title={`${current.name} has no tabs`} description="Add a tab above to start placing tiles." />}
        </>
      )}

      <TileModal target={tileTarget} onClose={() => setTileTarget(null)} project={project} />
      <PositionModal project={project} tile={moving} onClose={() => setMoving(null)} />
      <ExportModal tile={exporting} onClose={() => setExporting(null)} />
      <ImportModal
        opened={importOpen}
        onClose={importHandlers.close}
        project={project}
        defaultInterfaceId={current?.id ?? null}
        defaultTabId={tab?.id ?? null}
        onShowTile={(ids) => {
          importHandlers.close();
          if (ids.project !== project) {
            setParams({ project: ids.project, ...(ids.interfaceId ? { interface: ids.interfaceId } : {}), tab: ids.tab_id, tile: ids.tile_id });
            return;
          }
          const owner = list.find((i) => i.tabs.some((t) => t.id === ids.tab_id));
          setParam({ interface: owner?.id ?? ids.interfaceId, tab: ids.tab_id, tile: ids.tile_id });
        }}
      />
    </Stack>
  );
}

export function DashboardsPage() {
  const [params, setParams] = useSearchParams();
  const projects = useQuery(projectQueries.names());
  const selected = params.get('project');
  const project = selected && projects.data?.includes(selected) ? selected : (projects.data?.[0] ?? null);

  useEffect(() => {
    if (project && project !== selected) {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.set('project', project);
          return next;
        },
        { replace: true },
      );
    }
  }, [project, selected, setParams]);

  return (
    <>
      <PageHeader
        title="Dashboards"
        description="Dashboards of a project: tabs of tiles showing its contexts as tables and plots. Export a tile as a template, import one anywhere."
        actions={
          projects.data && projects.data.length > 0 ? (
            <Select
              label="Project"
              data={projects.data}
              value={project}
              searchable
              allowDeselect={false}
              onChange={(v) => setParams(v ? { project: v } : {}, { replace: true })}
              w={240}
            />
          ) : undefined
        }
      />
      {projects.isPending ? (
        <Stack aria-busy="true" aria-label="Loading projects">
          <Skeleton height={36} width={240} />
          <Skeleton height={240} />
        </Stack>
      ) : projects.isError ? (
        <ErrorAlert error={projects.error} onRetry={() => void projects.refetch()} />
      ) : !project ? (
        <EmptyState
          icon={<IconLayoutDashboard size={24} />}
          title="No projects in this workspace"
          description="Dashboards live in projects. Create a project first, then come back to lay out its contexts."
        />
      ) : (
        <ProjectDashboards key={project} project={project} />
      )}
    </>
  );
}
