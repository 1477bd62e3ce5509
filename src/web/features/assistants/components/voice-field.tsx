import { Button, Group, Select, Skeleton, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Voice } from '../../../../shared/assistants.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { voiceQueries } from '../../../data/voices.ts';
import { CloneVoiceModal, PROVIDER_LABELS } from './clone-voice-modal.tsx';
import { VoicePlayButton } from './voice-play-button.tsx';

export function voiceLabel(v: Voice): string {
  const details = [v.language, v.gender, PROVIDER_LABELS[v.provider] ?? v.provider].filter(Boolean).join(', ');
  return details ? `${v.name} (${details})` : v.name;
}

/** Choose the assistant's voice among presets and your clones, listen to it, or clone a new one. */
export function VoiceField({
  value,
  onChange,
  error,
  canClone = true,
}: {
  value: string | null;
  onChange: (voice: Voice | null) => void;
  error?: string;
  canClone?: boolean;
}) {
  const voices = useQuery(voiceQueries.list());
  const [cloning, { open, close }] = useDisclosure(false);
  if (voices.isPending) return <Skeleton height={60} />;
  if (voices.isError) return <ErrorAlert error={voices.error} onRetry={() => void voices.refetch()} title="Could not load the voices" />;

  const list = voices.data;
  const selected = list.find((v) => v.voice_id === value) ?? null;
  const clones = list.filter((v) => !v.is_preset);
  const presets = list.filter((v) => v.is_preset);
  const data = [
    ...(clones.length ? [{ group: 'Your cloned voices', items: clones.map((v) => ({ value: v.voice_id, label: voiceLabel(v) })) }] : []),
    ...(presets.length ? [{ group: 'Preset voices', items: presets.map((v) => ({ value: v.voice_id, label: voiceLabel(v) })) }] : []),
    // A voice the assistant holds that is no longer listed still shows as its id.
    ...(value && !selected ? [{ group: 'Current', items: [{ value, label: `${value} (not in your voices)` }] }] : []),
  ];

  return (
    <>
      <Group align="flex-end" gap="sm" wrap="nowrap">
        <Select
          label="Voice"
          placeholder="No voice"
          description="Presets and the voices you cloned."
          data={data}
          value={value}
          onChange={(id) => onChange(list.find((v) => v.voice_id === id) ?? null)}
          clearable
          clearButtonProps={{ 'aria-label': 'Remove the voice' }}
          searchable
          nothingFoundMessage="No voice matches"
          error={error}
          style={{ flex: 1 }}
        />
        <VoicePlayButton url={selected?.sample_url ?? null} name={selected?.name ?? 'the voice'} />
      </Group>
      {canClone && (
        <Group gap="xs">
          <Button variant="default" size="xs" leftSection={<IconPlus size={14} aria-hidden />} onClick={open}>
            Clone a new voice
          </Button>
          <Text size="xs" c="dimmed">
            The new voice is selected when it is ready.
          </Text>
        </Group>
      )}
      <CloneVoiceModal opened={cloning} onClose={close} onCloned={(voice) => onChange(voice)} />
    </>
  );
}
