import { Alert, Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconMicrophone, IconPlayerStopFilled, IconUpload } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { FileDropZone } from '../../../components/file-drop-zone.tsx';
import { checkFile, formatBytes, refusal, VOICE_SAMPLE_RULE } from '../file-rules.ts';

type Mode = 'file' | 'record';

/** Record formats the server accepts, best first (Chromium/Firefox: WebM/Opus or Ogg; Safari: MP4). */
const RECORD_TYPES = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4'];

function recorderType(): string | undefined {
  if (typeof MediaRecorder === 'undefined') return undefined;
  return RECORD_TYPES.find((t) => MediaRecorder.isTypeSupported(t));
}

function extensionOf(type: string): string {
  if (type.startsWith('audio/webm')) return 'webm';
  if (type.startsWith('audio/ogg')) return 'ogg';
  if (type.startsWith('audio/mp4')) return 'm4a';
  return 'audio';
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/** Why the microphone could not be used, in words that say what to do. */
function microphoneProblem(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'Microphone access was refused. Allow it in the browser (address bar) or upload a file instead.';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'No microphone was found. Connect one or upload a file instead.';
  if (name === 'NotReadableError') return 'The microphone is in use by another application.';
  return 'The microphone could not be started. Upload a file instead.';
}

/**
 * A voice sample from a file or from the microphone, checked with the server's rules and playable
 * before it is sent. `value` is the chosen sample; `onChange(null)` clears it.
 */
export function VoiceSampleInput({ value, onChange, error: fieldError }: { value: File | null; onChange: (file: File | null) => void; error?: string }) {
  const [mode, setMode] = useState<Mode>('file');
  const [problem, setProblem] = useState<string | null>(null);
  const [recording, setRecording] = useState(false);
  const [elapsed, setElapsed] = useState(0);
  const recorder = useRef<MediaRecorder | null>(null);
  const stream = useRef<MediaStream | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const canRecord = typeof navigator !== 'undefined' && !!navigator.mediaDevices?.getUserMedia && recorderType() !== undefined;

  // The object URL is a resource held outside React, created for each file and revoked with it: the
  // effect is where it lives, and the state carries it to the player.
  useEffect(() => {
    if (!value) {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- synchronising with the object URL's lifetime
      setPreviewUrl(null);
      return;
    }
    const url = URL.createObjectURL(value);
    setPreviewUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [value]);

  // Leaving the dialog mid-recording releases the microphone.
  useEffect(
    () => () => {
      if (recorder.current?.state === 'recording') recorder.current.stop();
      stream.current?.getTracks().forEach((t) => t.stop());
    },
    [],
  );

  useEffect(() => {
    if (!recording) return;
    const started = Date.now();
    const timer = setInterval(() => setElapsed(Math.floor((Date.now() - started) / 1000)), 250);
    return () => clearInterval(timer);
  }, [recording]);

  const accept = async (file: File | undefined) => {
    setProblem(null);
    if (!file) return;
    const check = await checkFile(file, VOICE_SAMPLE_RULE);
    if (!check.ok) {
      setProblem(refusal(file, VOICE_SAMPLE_RULE, check.reason));
      return;
    }
    onChange(file);
  };

  const start = async () => {
    setProblem(null);
    const type = recorderType();
    try {
      const media = await navigator.mediaDevices.getUserMedia({ audio: true });
      stream.current = media;
      const rec = new MediaRecorder(media, type ? { mimeType: type } : undefined);
      const chunks: Blob[] = [];
      rec.ondataavailable = (e) => e.data.size > 0 && chunks.push(e.data);
      rec.onstop = () => {
        media.getTracks().forEach((t) => t.stop());
        stream.current = null;
        setRecording(false);
        const blobType = rec.mimeType || type || 'audio/webm';
        const blob = new Blob(chunks, { type: blobType });
        if (blob.size === 0) {
          setProblem('Nothing was recorded. Check the microphone and try again.');
          return;
        }
        void accept(new File([blob], `recording-${new Date().toISOString().slice(0, 19).replaceAll(':', '-')}.${extensionOf(blobType)}`, { type: blobType }));
      };
      recorder.current = rec;
      rec.start(250);
      setElapsed(0);
      setRecording(true);
    } catch (e) {
      stream.current?.getTracks().forEach((t) => t.stop());
      setRecording(false);
      setProblem(microphoneProblem(e));
    }
  };

  const stop = () => recorder.current?.state === 'recording' && recorder.current.stop();

  return (
    <Stack gap="sm">
      <SegmentedControl
        value={mode}
        onChange={(m) => {
          stop();
          setMode(m as Mode);
        }}
        data={[
          { value: 'file', label: 'Upload a file' },
          { value: 'record', label: 'Record with microphone' },
        ]}
        aria-label="Voice sample source"
        disabled={recording}
      />
      {mode === 'file' && (
        <FileDropZone
          icon={<IconUpload size={28} aria-hidden />}
          title="Drop an audio sample here, or click to choose one"
          hint={`${VOICE_SAMPLE_RULE.kinds}, up to ${formatBytes(VOICE_SAMPLE_RULE.maxBytes)}. A clear 30–60 second recording works best.`}
          accept={VOICE_SAMPLE_RULE.accept}
          label="Drop an audio sample here or press to choose one"
          inputLabel="Voice sample file"
          onFile={(file) => void accept(file)}
        />
      )}
      {mode === 'record' &&
        (canRecord ? (
          <Group gap="sm">
            {recording ? (
              <Button color="red" leftSection={<IconPlayerStopFilled size={16} aria-hidden />} onClick={stop}>
                Stop recording
              </Button>
            ) : (
              <Button variant="light" leftSection={<IconMicrophone size={16} aria-hidden />} onClick={() => void start()}>
                {value ? 'Record again' : 'Start recording'}
              </Button>
            )}
            {recording && (
              <Text size="sm" role="status" aria-live="polite">
                Recording… {clock(elapsed)}
              </Text>
            )}
          </Group>
        ) : (
          <Text size="sm">This browser cannot record audio here (it needs a secure connection and MediaRecorder). Upload a file instead.</Text>
        ))}
      {value && previewUrl && !recording && (
        <Stack gap={4}>
          <Text size="sm">
            Sample: <strong>{value.name}</strong> ({formatBytes(value.size)}). Listen before uploading:
          </Text>
          <Group gap="sm" wrap="nowrap">
            <audio controls src={previewUrl} aria-label="Play the voice sample" style={{ maxWidth: '100%' }} />
            <Button variant="default" size="xs" onClick={() => onChange(null)}>
              Remove sample
            </Button>
          </Group>
        </Stack>
      )}
      {(problem || fieldError) && (
        <Alert color="red" role="alert" p="xs">
          {problem ?? fieldError}
        </Alert>
      )}
    </Stack>
  );
}
