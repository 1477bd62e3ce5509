import { Alert, Button, Group, Select, Skeleton, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { AUDIT_ACTIONS, AuditActionSchema, type AuditAction, type AuditEvent } from '../../../../shared/audit.ts';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { ListSkeleton, ListTable } from '../../../components/list-kit.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { auditQueries } from '../../../data/audit.ts';
import { memberQueries } from '../../../data/members.ts';
import { useMe } from '../../../lib/use-me.ts';
import { useWorkspace } from '../../../lib/workspace.ts';
import { actionWords, detailWords, exactTime, relativeTime } from '../format.ts';

const ACTION_OPTIONS = (Object.keys(AUDIT_ACTIONS) as AuditAction[]).map((value) => ({ value, label: AUDIT_ACTIONS[value] }));

/** The filters, kept in the address (`?actor=&action=`) so that a filtered view can be shared. */
function useAuditFilter() {
  const [params, setParams] = useSearchParams();
  const parsedAction = AuditActionSchema.safeParse(params.get('action'));
  const filter = { actor: params.get('actor') || undefined, action: parsedAction.success ? parsedAction.data : undefined };
  const set = (name: 'actor' | 'action', value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  const clear = () => setParams(new URLSearchParams(), { replace: true });
  return { filter, set, clear };
}

function When({ iso }: { iso: string }) {
  return (
    <Tooltip label={exactTime(iso)} withArrow>
      <Text component="time" dateTime={iso} size="sm" tabIndex={0} style={{ whiteSpace: 'nowrap' }}>
        {relativeTime(iso)}
      </Text>
    </Tooltip>
  );
}

function EventRow({ event }: { event: AuditEvent }) {
  const detail = detailWords(event);
  return (
    <Table.Tr>
      <Table.Td>
        <When iso={event.created_at} />
      </Table.Td>
      <Table.Td>
        <Text size="sm" fw={500}>
          {event.actor.name}
        </Text>
        {event.actor.key_name && (
          <Text size="xs" c="dimmed">
            with key {event.actor.key_name}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{actionWords(event)}</Text>
      </Table.Td>
      <Table.Td>
        {event.target?.label ? (
          <Text size="sm">{event.target.label}</Text>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        )}
        {detail && (
          <Text size="xs" c="dimmed">
            {detail}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** The people of an organization, to filter by (the log keeps former members' names, but filters by today's). */
function PersonFilter({ organizationId, value, onChange }: { organizationId: number; value: string | null; onChange: (value: string | null) => void }) {
  const members = useQuery(memberQueries.list(organizationId));
  const options = (members.data ?? []).map((m) => ({ value: m.user_id, label: m.name ?? m.email ?? m.user_id }));
  if (value && !options.some((o) => o.value === value)) options.push({ value, label: 'A former member' });
  return (
    <Select
      label="Person"
      placeholder={members.isPending ? 'Loading people…' : 'Anyone'}
      data={options}
      value={value}
      onChange={onChange}
      clearable
      searchable
      maw={280}
      nothingFoundMessage="No one by that name"
    />
  );
}

function ActivityLog({ organizationId }: { organizationId: number | null }) {
  const { filter, set, clear } = useAuditFilter();
  const log = useInfiniteQuery(auditQueries.log(organizationId, filter));
  const events = log.data?.pages.flatMap((p) => p.events) ?? [];
  const filtered = filter.actor !== undefined || filter.action !== undefined;
  // A failed "Load more" keeps the pages already shown, with its own retry under them.
  const moreFailed = log.isFetchNextPageError;

  let body;
  if (log.isPending) body = <ListSkeleton rows={6} height={44} label="Loading activity" />;
  else if (log.isError && !moreFailed) body = <ErrorAlert error={log.error} onRetry={() => void log.refetch()} title="Could not load the activity" />;
  else if (events.length === 0)
    body = (
      <EmptyState
        icon={<IconHistory size={24} />}
        title={filtered ? 'Nothing matches these filters' : 'No activity yet'}
        description={
          filtered
            ? 'Clear a filter to see more.'
            : 'Changes show up here as they happen: invites, members, keys, assistants, projects and contexts, each with who made it.'
        }
        action={
          filtered && (
            <Button variant="light" onClick={clear}>
              Clear filters
            </Button>
          )
        }
      />
    );
  else
    body = (
      <Stack gap="sm">
        <ListTable columns={['When', 'Who', 'What', 'Target']} minWidth={720} label="Activity, newest first">
          {events.map((event) => (
            <EventRow key={event.id} event={event} />
          ))}
        </ListTable>
        <Group justify="center">
          {log.hasNextPage ? (
            <Button variant="default" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage}>
              Load more
            </Button>
          ) : (
            <Text size="sm" c="dimmed">
              {events.length === 1 ? 'That is the only event.' : `That is all: ${events.length} events.`}
            </Text>
          )}
        </Group>
        {moreFailed && <ErrorAlert error={log.error} onRetry={() => void log.fetchNextPage()} title="Could not load more" />}
      </Stack>
    );

  return (
    <Stack gap="md">
      <Group gap="md" align="flex-end" wrap="wrap" role="search" aria-label="Filter the activity">
        {organizationId !== null && <PersonFilter organizationId={organizationId} value={filter.actor ?? null} onChange={(v) => set('actor', v)} />}
        <Select
          label="Action"
          placeholder="Any action"
          data={ACTION_OPTIONS}
          value={filter.action ?? null}
          onChange={(v) => set('action', v)}
          clearable
          searchable
          maw={280}
          nothingFoundMessage="No such action"
        />
      </Group>
      {body}
    </Stack>
  );
}

export function ActivityPage() {
  const { organizationId } = useWorkspace();
  const me = useMe();
  const description =
    organizationId === null
      ? 'Changes in your personal workspace and account: keys, assistants, projects, sign-outs. Newest first.'
      : 'Every change in this organization, who made it and when. Newest first.';
  let content;
  if (me.isPending) content = <Skeleton height={240} />;
  else if (me.isError) content = <ErrorAlert error={me.error} onRetry={() => void me.refetch()} />;
  else if (organizationId !== null && !me.data.key.permissions.includes('org:write'))
    content = (
      <Alert color="gray" title="Owners and Admins only">
        The organization’s activity is for its Owners and Admins. Ask one of them if you need to know who changed something.
      </Alert>
    );
  else content = <ActivityLog organizationId={organizationId} />;
  return (
    <>
      <PageHeader title="Activity" description={description} />
      {content}
    </>
  );
}
