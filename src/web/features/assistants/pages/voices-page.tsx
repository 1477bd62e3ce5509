import { Alert, Anchor, Badge, Button, List, Skeleton, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconMicrophone, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { Link } from 'react-router';
import type { Voice, VoiceInUseError } from '../../../../shared/assistants.ts';
import type { ConfirmRequest } from '../../../components/confirm-delete.tsx';
import { DeleteRowButton } from '../../../components/delete-row-button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { GatedButton } from '../../../components/gated-button.tsx';
import { ListTable, QueryList, RowActions, SearchInput } from '../../../components/list-kit.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { missingPermission, useMe } from '../../../lib/use-me.ts';
import { useUrlFilter } from '../../../lib/use-url-filter.ts';
import { voiceInUseBy, voiceMutations, voiceQueries } from '../../../data/voices.ts';
import { useApiMutation } from '../../../lib/mutation.ts';
import { CloneVoiceModal, PROVIDER_LABELS } from '../components/clone-voice-modal.tsx';
import { languageName } from '../format.ts';
import { VoicePlayButton } from '../components/voice-play-button.tsx';
import { useWorkspace } from '../../../lib/workspace.ts';

const date = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

type Problem = { voice: Voice; message: string; inUseBy: VoiceInUseError['assistants'] | null };

/** Why a delete failed, with the assistants to change first when the voice is in use. */
function DeleteProblem({ problem, onClose }: { problem: Problem; onClose: () => void }) {
  const workspace = useWorkspace();
  const { voice, inUseBy } = problem;
  return (
    <Alert
      color="orange"
      role="alert"
      title={inUseBy ? `${voice.name} is still in use` : `${voice.name} was not deleted`}
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={onClose}
      mb="md"
    >
      <Stack gap="xs">
        <Text size="sm">{problem.message}</Text>
        {inUseBy && inUseBy.length > 0 && (
          <>
            <Text size="sm">Give these assistants another voice (or none) first, then delete it:</Text>
            <List size="sm">
              {inUseBy.map((a) => (
                <List.Item key={a.agent_id}>
                  {/* Text colour: the link blue fails contrast on the orange tint. */}
                  <Anchor component={Link} to={workspace.path(`/assistants/${a.agent_id}#voice`)} underline="always" c="var(--mantine-color-text)" fw={600}>
                    {a.name}
                  </Anchor>
                </List.Item>
              ))}
            </List>
          </>
        )}
      </Stack>
    </Alert>
  );
}

export function VoicesPage() {
  const workspace = useWorkspace();
  const voices = useQuery(voiceQueries.list());
  const me = useMe();
  const remove = useApiMutation(voiceMutations.delete, {
    onSuccess: (_r, voice) => notifications.show({ color: 'teal', message: `Voice ${voice.name} deleted.` }),
  });
  const [cloning, { open, close }] = useDisclosure(false);
  const { input: searchInput, setInput: setSearchInput } = useUrlFilter('q');
  const search = useDeferredValue(searchInput);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [playError, setPlayError] = useState<string | null>(null);
  const cannotWrite = missingPermission(me.data, 'assistant:write');
  const cannotDelete = missingPermission(me.data, 'assistant:delete');

  const cloneButton = (
    <GatedButton reason={cannotWrite} icon={<IconPlus size={16} aria-hidden />} onClick={open}>
      Clone a voice
    </GatedButton>
  );

  const deleteRequest = (voice: Voice): ConfirmRequest => ({
    title: `Delete the voice ${voice.name}?`,
    message: 'The voice and its stored sample are removed. Assistants cannot use it afterwards.',
    confirmLabel: 'Delete voice',
    onConfirm: () => {
      setProblem(null);
      remove.mutate(voice, {
        onError: (error) => setProblem({ voice, message: errorMessage(error), inUseBy: voiceInUseBy(error) }),
      });
    },
  });

  const content = (
    <QueryList
      query={voices}
      loading={<Skeleton height={200} />}
      empty={
        <EmptyState
          icon={<IconMicrophone size={24} />}
          title="No voices yet"
          description="Clone a voice from a short recording of the speaker; your assistants can then speak with it."
          action={cloneButton}
        />
      }
    >
      {(list) => {
        const words = search.toLowerCase().split(/\s+/).filter(Boolean);
        const shown = list.filter((v) => {
          const hay = [v.name, languageName(v.language), v.gender, v.description, v.provider].filter(Boolean).join(' ').toLowerCase();
          return words.every((w) => hay.includes(w));
        });
        return (
          <Stack gap="md">
            <SearchInput label="Search voices" placeholder="Name, language, provider…" value={searchInput} onChange={setSearchInput} />
            {shown.length === 0 ? (
              <Text c="dimmed">No voice matches “{search}”.</Text>
            ) : (
              <ListTable
                columns={[<VisuallyHidden key="sample">Sample</VisuallyHidden>, 'Name', 'Language', 'Gender', 'Provider', 'Kind', 'Added']}
                actions
                minWidth={720}
              >
                {shown.map((voice) => (
                  <Table.Tr key={`${voice.provider}:${voice.voice_id}`}>
                    <Table.Td w={48}>
                      <VoicePlayButton url={voice.sample_url} name={voice.name} onError={setPlayError} />
                    </Table.Td>
                    <Table.Td>
                      <Text fw={500}>{voice.name}</Text>
                      {voice.description && (
                        <Text size="xs" c="dimmed" lineClamp={1}>
                          {voice.description}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{languageName(voice.language) ?? <Text c="dimmed">—</Text>}</Table.Td>
                    <Table.Td>{voice.gender ?? <Text c="dimmed">—</Text>}</Table.Td>
                    <Table.Td>{PROVIDER_LABELS[voice.provider] ?? voice.provider}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={voice.is_preset ? 'gray' : 'blue'}>
                        {voice.is_preset ? 'Preset' : 'Clone'}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{voice.is_preset ? <Text c="dimmed">—</Text> : date.format(new Date(voice.created_at))}</Table.Td>
                    <RowActions>
                      {!voice.is_preset && <DeleteRowButton label={`Delete ${voice.name}`} reason={cannotDelete} tooltip confirm={deleteRequest(voice)} />}
                    </RowActions>
                  </Table.Tr>
                ))}
              </ListTable>
            )}
          </Stack>
        );
      }}
    </QueryList>
  );

  return (
    <>
      <PageHeader
        title="Voices"
        description="Voices your assistants can speak with: presets, and the voices you cloned."
        actions={
          <>
            <Button component={Link} to={workspace.path('/assistants')} variant="default">
              Assistants
            </Button>
            {voices.data?.length ? cloneButton : null}
          </>
        }
      />
      {problem && <DeleteProblem problem={problem} onClose={() => setProblem(null)} />}
      {playError && (
        <Alert color="red" role="alert" withCloseButton closeButtonLabel="Dismiss" onClose={() => setPlayError(null)} mb="md">
          {playError}
        </Alert>
      )}
      {content}
      <CloneVoiceModal opened={cloning} onClose={close} />
    </>
  );
}
