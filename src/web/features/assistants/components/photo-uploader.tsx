import { Alert, Avatar, Button, Group, Stack, Text } from '@mantine/core';
import { IconPhotoUp } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import type { UploadedFile } from '../../../../shared/assistants.ts';
import { assistantMutations } from '../../../data/assistants.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useApiMutation } from '../../../lib/mutation.ts';
import { checkFile, formatBytes, PHOTO_RULE, refusal } from '../file-rules.ts';
import { SquareCropper } from './square-cropper.tsx';
import { UploadProgress } from './upload-progress.tsx';
import { FileDropZone } from '../../../components/file-drop-zone.tsx';

type Step = { kind: 'pick' } | { kind: 'crop'; src: string; type: string; name: string } | { kind: 'uploading'; fraction: number };

/**
 * Pick (drop or browse) → checked here with the server's rules → square crop → real upload progress.
 * With `assistantId` the server attaches the photo to that assistant; without, the caller gets the URL
 * (to send as `profile_photo` when hiring).
 */
export function PhotoUploader({
  assistantId,
  currentUrl,
  name,
  onUploaded,
  onRemove,
}: {
  assistantId?: number;
  currentUrl?: string | null;
  /** Whose photo it is, for the preview's alt text. */
  name: string;
  /** With `assistantId` the assistant's cached reads refresh by themselves (data/assistants.ts). */
  onUploaded?: (photo: UploadedFile) => void;
  /** Offered while a photo is chosen but not yet saved anywhere (hiring). */
  onRemove?: () => void;
}) {
  const [step, setStep] = useState<Step>({ kind: 'pick' });
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const uploadPhoto = useApiMutation(assistantMutations.uploadPhoto);

  useEffect(() => () => abort.current?.abort(), []);
  useEffect(() => {
    if (step.kind !== 'crop') return;
    return () => URL.revokeObjectURL(step.src);
  }, [step]);

  const onFile = async (file: File | undefined) => {
    setError(null);
    if (!file) return;
    const check = await checkFile(file, PHOTO_RULE);
    if (!check.ok) {
      setError(refusal(file, PHOTO_RULE, check.reason));
      return;
    }
    setStep({ kind: 'crop', src: URL.createObjectURL(file), type: check.type, name: file.name });
  };

  const upload = async (file: File) => {
    const controller = new AbortController();
    abort.current = controller;
    setStep({ kind: 'uploading', fraction: 0 });
    try {
      const photo = await uploadPhoto.mutateAsync({ file, assistantId, signal: controller.signal, onProgress: (fraction) => setStep({ kind: 'uploading', fraction }) });
      setStep({ kind: 'pick' });
      onUploaded?.(photo);
    } catch (e) {
      setStep({ kind: 'pick' });
      if ((e as Error).name !== 'AbortError') setError(errorMessage(e));
    } finally {
      abort.current = null;
    }
  };

  return (
    <Stack gap="sm">
      <Group gap="md" align="center">
        <Avatar
          src={currentUrl ?? null}
          alt={currentUrl ? `Photo of ${name || 'the new assistant'}` : undefined}
          size={72}
          radius="xl"
          color="blue"
          name={name || undefined}
        />
        <Text size="sm" c="dimmed">
          {currentUrl ? 'Current photo.' : 'No photo yet.'} {PHOTO_RULE.kinds}, at most {formatBytes(PHOTO_RULE.maxBytes)}; cropped to a square.
        </Text>
      </Group>
      {step.kind === 'pick' && (
        <FileDropZone
          icon={<IconPhotoUp size={28} aria-hidden />}
          title="Drop a photo here, or click to choose one"
          hint={`${PHOTO_RULE.kinds} up to ${formatBytes(PHOTO_RULE.maxBytes)}`}
          // The bytes decide (like the server): the picker only suggests image files.
          accept={PHOTO_RULE.accept}
          label="Drop a photo here or press to choose one"
          inputLabel="Photo file"
          onFile={(file) => void onFile(file)}
        />
      )}
      {step.kind === 'crop' && (
        <SquareCropper src={step.src} sourceType={step.type} fileName={step.name} onCropped={(file) => void upload(file)} onCancel={() => setStep({ kind: 'pick' })} />
      )}
      {step.kind === 'uploading' && <UploadProgress label="Uploading photo" fraction={step.fraction} onCancel={() => abort.current?.abort()} />}
      {error && (
        <Alert color="red" role="alert" title="Photo not accepted">
          {error}
        </Alert>
      )}
      {step.kind === 'pick' && currentUrl && onRemove && (
        <Group>
          <Button variant="default" size="xs" onClick={onRemove}>
            Remove photo
          </Button>
        </Group>
      )}
    </Stack>
  );
}
