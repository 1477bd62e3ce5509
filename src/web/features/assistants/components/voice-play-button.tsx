import { ActionIcon, Tooltip } from '@mantine/core';
import { IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react';
import { useEffect, useSyncExternalStore } from 'react';

// One player for the whole page: starting a sample stops the one playing.
let audio: HTMLAudioElement | null = null;
let playing: string | null = null;
const listeners = new Set<() => void>();
const emit = (url: string | null) => {
  playing = url;
  listeners.forEach((l) => l());
};

function toggle(url: string, onError: () => void) {
  if (playing === url && audio) {
    audio.pause();
    emit(null);
    return;
  }
  audio?.pause();
  audio = new Audio(url);
  audio.onended = () => emit(null);
  audio.onerror = () => {
    emit(null);
    onError();
  };
  emit(url);
  audio.play().catch(() => {
    emit(null);
    onError();
  });
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** Play/pause a voice sample; without a sample the button says so and is disabled. */
export function VoicePlayButton({ url, name, onError }: { url: string | null; name: string; onError?: (message: string) => void }) {
  const current = useSyncExternalStore(subscribe, () => playing);
  const isPlaying = !!url && current === url;
  // Leaving the page stops the sound.
  useEffect(
    () => () => {
      if (url && playing === url) {
        audio?.pause();
        emit(null);
      }
    },
    [url],
  );
  const label = !url ? `No sample for ${name}` : isPlaying ? `Pause ${name}` : `Play ${name}`;
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon
        variant="light"
        radius="xl"
        aria-label={label}
        disabled={!url}
        onClick={() => url && toggle(url, () => onError?.(`The sample of ${name} could not be played.`))}
      >
        {isPlaying ? <IconPlayerPauseFilled size={14} aria-hidden /> : <IconPlayerPlayFilled size={14} aria-hidden />}
      </ActionIcon>
    </Tooltip>
  );
}
