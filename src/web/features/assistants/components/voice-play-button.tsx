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
    audio = null; // a play() still pending now rejects: not an error
    emit(null);
    return;
  }
  audio?.pause();
  const mine = new Audio(url);
  audio = mine;
  // Events of a sample that another one replaced are ignored: pausing it rejects its pending play()
  // ("interrupted by a call to pause()"), which used to stop the new sample's state and report an error.
  const current = () => audio === mine;
  const failed = () => {
    if (!current()) return;
    emit(null);
    onError();
  };
  mine.onended = () => current() && emit(null);
  mine.onerror = failed;
  emit(url);
  mine.play().catch(failed);
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** Play/pause a voice sample; without a sample the button says so and is disabled. */
export function VoicePlayButton({ url, name, onError }: { url: string | null; name: string; onError?: (message: string) => void }) {
  const current = useSyncExternalStore(
    subscribe,
    () => playing,
    () => playing,
  );
  const isPlaying = !!url && current === url;
  // Leaving the page stops the sound.
  useEffect(
    () => () => {
      if (url && playing === url) {
        audio?.pause();
        audio = null;
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
