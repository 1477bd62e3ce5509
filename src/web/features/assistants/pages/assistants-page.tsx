import { Anchor, Avatar, Badge, Button, Group, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconMicrophone, IconRobot, IconUserPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { memo, useDeferredValue } from 'react';
import { Link } from 'react-router';
import { assistantDisplayName } from '../../../../shared/assistant-name.ts';
import { EmptyState } from '../../../components/empty-state.tsx';
import { GatedButton } from '../../../components/gated-button.tsx';
import { ListTable, QueryList, SearchInput, TableHead } from '../../../components/list-kit.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { missingPermission, useMe } from '../../../lib/use-me.ts';
import { useUrlFilter } from '../../../lib/use-url-filter.ts';
import { useDeferredQuery } from '../../../lib/use-deferred-query.ts';
import { assistantQueries } from '../../../data/assistants.ts';
import { voiceQueries } from '../../../data/voices.ts';
import { accountQueries } from '../../../data/account.ts';
import { hoursPerWeek, initials, isCappedAtLimit, matchesSearch, parallelTasks, spendingCapLabel, voiceName } from '../format.ts';
import { useWorkspace } from '../../../lib/workspace.ts';
import type { Assistant, Voice } from '../../../../shared/assistants.ts';

const COLUMNS = ['Assistant', 'About', 'Time zone', 'Voice', 'Weekly limit', 'Parallel tasks', 'Spending cap'];

function TableSkeleton() {
  return (
    <Table verticalSpacing="sm" aria-busy="true" aria-label="Loading assistants">
      <TableHead columns={COLUMNS} />
      <Table.Tbody>
        {[0, 1, 2].map((row) => (
          <Table.Tr key={row}>
            <Table.Td>
              <Group gap="sm" wrap="nowrap">
                <Skeleton height={38} circle />
                <Skeleton height={12} width={120} />
              </Group>
            </Table.Td>
            {COLUMNS.slice(1).map((c) => (
              <Table.Td key={c}>
                <Skeleton height={12} width={c === 'About' ? 180 : 70} />
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * The table of assistants. It renders again only when what it shows changes (memo), and the page hands
 * it the voices and the spending limit as deferred values, like the list itself (useDeferredQuery): each
 * of those answers arrives on its own after the list has painted, and useQuery's updates render
 * synchronously, so each was the whole table rendered again in one task (25-36 ms on this machine, 100-145 ms
 * under Lighthouse's 4x CPU). Now that update renders the page around the table, and the table follows in
 * the background, yielding to the browser every few milliseconds.
 */
const AssistantsTable = memo(function AssistantsTable({
  list,
  voices,
  search,
  limit,
}: {
  list: Assistant[];
  voices: Voice[] | undefined;
  search: string;
  /** The account's monthly spending limit, in the personal workspace; undefined elsewhere or until known. */
  limit: number | null | undefined;
}) {
  const workspace = useWorkspace();
  const rows = list.map((a) => ({ a, voice: voiceName(a, voices) })).filter(({ a, voice }) => matchesSearch(a, search, voice));
  if (rows.length === 0) return <Text c="dimmed">No assistant matches “{search}”.</Text>;
  return (
    <ListTable
      columns={COLUMNS}
      minWidth={860}
      caption={rows.length === list.length ? `${rows.length} assistant${rows.length === 1 ? '' : 's'}` : `${rows.length} of ${list.length} assistants`}
    >
      {rows.map(({ a, voice }) => {
        const name = assistantDisplayName(a);
        return (
          <Table.Tr key={a.agent_id}>
            <Table.Td>
              <Group gap="sm" wrap="nowrap">
                <Avatar src={a.profile_photo} alt="" radius="xl" color="blue" name={name}>
                  {initials(a)}
                </Avatar>
                <div style={{ minWidth: 0 }}>
                  <Anchor component={Link} to={workspace.path(`/assistants/${a.agent_id}`)} fw={600}>
                    {name}
                  </Anchor>
                  {a.email && (
                    <Text size="xs" c="dimmed" truncate>
                      {a.email}
                    </Text>
                  )}
                </div>
              </Group>
            </Table.Td>
            <Table.Td maw={280}>
              {a.about ? (
                <Text size="sm" lineClamp={2}>
                  {a.about}
                </Text>
              ) : (
                <Text c="dimmed">—</Text>
              )}
            </Table.Td>
            <Table.Td>{a.timezone ?? <Text c="dimmed">Not set</Text>}</Table.Td>
            <Table.Td>{voice ?? <Text c="dimmed">None</Text>}</Table.Td>
            <Table.Td>{hoursPerWeek(a.weekly_limit)}</Table.Td>
            <Table.Td>{parallelTasks(a.max_parallel)}</Table.Td>
            <Table.Td>
              <Group gap={6} wrap="nowrap">
                <Text size="sm" c={a.monthly_spending_cap === null ? 'dimmed' : undefined}>
                  {spendingCapLabel(a.monthly_spending_cap)}
                </Text>
                {isCappedAtLimit(a, limit) && (
                  <Badge size="sm" color="yellow" variant="filled" autoContrast title="Capped to your account's monthly spending limit">
                    At your limit
                  </Badge>
                )}
              </Group>
            </Table.Td>
          </Table.Tr>
        );
      })}
    </ListTable>
  );
});

export function AssistantsPage() {
  const workspace = useWorkspace();
  const assistants = useDeferredQuery(assistantQueries.list());
  const voiceList = useQuery(voiceQueries.list());
  const voices = useDeferredValue(voiceList.data);
  const me = useMe();
  // In the personal workspace, the account's limit marks the assistants it capped.
  const personal = workspace.organizationId === null && me.data !== undefined && me.data.key.kind !== 'organization';
  const limit = useQuery({ ...accountQueries.spendingLimit(), enabled: personal });
  const personalLimit = useDeferredValue(personal ? limit.data?.monthly_spending_cap : undefined);
  const { input: searchInput, setInput: setSearchInput } = useUrlFilter('q');
  // The list follows the field without ever holding up typing.
  const search = useDeferredValue(searchInput);
  const cannotHire = missingPermission(me.data, 'assistant:write');

  const hireButton = (
    <GatedButton reason={cannotHire} to={workspace.path('/assistants/new')} icon={<IconUserPlus size={16} aria-hidden />}>
      Hire an assistant
    </GatedButton>
  );

  const content = (
    <QueryList
      query={assistants}
      loading={<TableSkeleton />}
      empty={
        <EmptyState
          icon={<IconRobot size={24} />}
          title="No assistants yet"
          description="Hire your first assistant: give it a name, working hours, a time zone, a photo and a voice. You can change everything later."
          action={hireButton}
        />
      }
    >
      {(list) => (
        <Stack gap="md">
          <SearchInput label="Search assistants" placeholder="Name, about, e-mail, time zone, voice…" value={searchInput} onChange={setSearchInput} />
          <AssistantsTable list={list} voices={voices} search={search} limit={personalLimit} />
        </Stack>
      )}
    </QueryList>
  );

  return (
    <>
      <PageHeader
        title="Assistants"
        description="The assistants working in this workspace."
        actions={
          <>
            <Button component={Link} to={workspace.path('/assistants/voices')} variant="default" leftSection={<IconMicrophone size={16} aria-hidden />}>
              Voices
            </Button>
            {assistants.data?.length ? hireButton : null}
          </>
        }
      />
      {content}
    </>
  );
}
