import { Alert, Avatar, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconPhotoUp } from '@tabler/icons-react';
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import type { UploadedFile } from '../../../../shared/assistants.ts';
import { assistantMutations } from '../../../data/assistants.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useApiMutation } from '../../../lib/mutation.ts';
import { checkFile, formatBytes, PHOTO_RULE, refusal } from '../file-rules.ts';
import { fitPhoto, type FittedPhoto, type PictureSize } from '../reduce-photo.ts';
import { SquareCropper, type SquareCropperHandle } from './square-cropper.tsx';
import { UploadProgress } from './upload-progress.tsx';
import { FileDropZone } from '../../../components/file-drop-zone.tsx';
import { useUnsavedChanges } from '../../../components/leave-guard.tsx';

type Step =
  | { kind: 'pick' }
  | { kind: 'reducing'; name: string }
  | { kind: 'crop'; src: string; type: string; name: string; reduced: string | null }
  | { kind: 'uploading'; fraction: number; bytes: number };

/** What a form that uploads the chosen photo itself (hiring) gets from `uploadPending`. */
export type PendingUpload = { kind: 'none' } | { kind: 'uploaded'; photo: UploadedFile } | { kind: 'failed'; message: string };

export interface PhotoUploaderHandle {
  /** Crops a chosen photo as set so far (centred, unzoomed by default) and uploads it; `none` when no photo waits. */
  uploadPending(): Promise<PendingUpload>;
}

const size = (s: PictureSize) => `${formatBytes(s.bytes)} (${s.width} × ${s.height})`;

/** "phone.jpg was 7.8 MB (4032 × 3024); reduced in your browser to 1.1 MB (2048 × 1536)." */
function reducedNote(name: string, fitted: FittedPhoto): string | null {
  return fitted.after && `${name} was ${size(fitted.before)}; reduced in your browser to ${size(fitted.after)}.`;
}

/**
 * Pick (drop or browse) → checked here with the server's rules (a photo over the server's limit is first
 * reduced in the browser) → square crop → real upload progress. With `assistantId` the server attaches the
 * photo to that assistant; without, the caller gets the URL (to send as `profile_photo` when hiring), from
 * "Crop and upload" or from `ref.uploadPending()` when the form is sent with a photo still in the cropper.
 */
export function PhotoUploader({
  assistantId,
  currentUrl,
  name,
  onUploaded,
  onRemove,
  pendingNote,
  ref,
}: {
  assistantId?: number;
  currentUrl?: string | null;
  /** Whose photo it is, for the preview's alt text. */
  name: string;
  /** With `assistantId` the assistant's cached reads refresh by themselves (data/assistants.ts). */
  onUploaded?: (photo: UploadedFile) => void;
  /** Offered while a photo is chosen but not yet saved anywhere (hiring). */
  onRemove?: () => void;
  /** Said under the cropper: what happens to a photo left there (hiring uploads it). */
  pendingNote?: string;
  ref?: Ref<PhotoUploaderHandle>;
}) {
  const [step, setStep] = useState<Step>({ kind: 'pick' });
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const cropper = useRef<SquareCropperHandle>(null);
  const uploadPhoto = useApiMutation(assistantMutations.uploadPhoto);
  // A photo chosen and not uploaded is an unsaved change of the page.
  useUnsavedChanges(step.kind === 'crop' || step.kind === 'reducing');

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
    setStep({ kind: 'reducing', name: file.name });
    try {
      const fitted = await fitPhoto(file, check.type);
      setStep({ kind: 'crop', src: URL.createObjectURL(fitted.file), type: fitted.type, name: file.name, reduced: reducedNote(file.name, fitted) });
    } catch (e) {
      setStep({ kind: 'pick' });
      setError(`${file.name}: ${(e as Error).message}`);
    }
  };

  const upload = async (file: File): Promise<PendingUpload> => {
    const controller = new AbortController();
    abort.current = controller;
    setStep({ kind: 'uploading', fraction: 0, bytes: file.size });
    try {
      const photo = await uploadPhoto.mutateAsync({
        file,
        assistantId,
        signal: controller.signal,
        onProgress: (fraction) => setStep({ kind: 'uploading', fraction, bytes: file.size }),
      });
      setStep({ kind: 'pick' });
      onUploaded?.(photo);
      return { kind: 'uploaded', photo };
    } catch (e) {
      setStep({ kind: 'pick' });
      const message = (e as Error).name === 'AbortError' ? 'The upload was cancelled.' : errorMessage(e);
      if ((e as Error).name !== 'AbortError') setError(message);
      return { kind: 'failed', message };
    } finally {
      abort.current = null;
    }
  };

  useImperativeHandle(
    ref,
    () => ({
      uploadPending: async () => {
        if (step.kind === 'reducing') return { kind: 'failed', message: 'The photo is still being prepared; try again in a moment.' };
        if (step.kind !== 'crop' || !cropper.current) return { kind: 'none' };
        let file: File;
        try {
          file = await cropper.current.crop();
        } catch (e) {
          return { kind: 'failed', message: (e as Error).message };
        }
        return upload(file);
      },
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `upload` reads only refs and setters besides the props it is made from
    [step, assistantId, onUploaded],
  );

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
          {currentUrl ? 'Current photo.' : 'No photo yet.'} {PHOTO_RULE.kinds}, cropped to a square; a photo over {formatBytes(PHOTO_RULE.maxBytes)} is made smaller in
          your browser first.
        </Text>
      </Group>
      {step.kind === 'pick' && (
        <FileDropZone
          icon={<IconPhotoUp size={28} aria-hidden />}
          title="Drop a photo here, or click to choose one"
          hint={`${PHOTO_RULE.kinds} up to ${formatBytes(PHOTO_RULE.reducibleUpTo ?? PHOTO_RULE.maxBytes)}`}
          // The bytes decide (like the server): the picker only suggests image files.
          accept={PHOTO_RULE.accept}
          label="Drop a photo here or press to choose one"
          inputLabel="Photo file"
          onFile={(file) => void onFile(file)}
        />
      )}
      {step.kind === 'reducing' && (
        <Group gap="sm" role="status">
          <Loader size="sm" aria-hidden />
          <Text size="sm">Making {step.name} smaller in your browser…</Text>
        </Group>
      )}
      {step.kind === 'crop' && (
        <>
          {step.reduced && (
            <Text size="sm" role="status">
              {step.reduced}
            </Text>
          )}
          <SquareCropper
            ref={cropper}
            src={step.src}
            sourceType={step.type}
            fileName={step.name}
            onCropped={(file) => void upload(file)}
            onCancel={() => setStep({ kind: 'pick' })}
          />
          {pendingNote && (
            <Text size="sm" c="dimmed">
              {pendingNote}
            </Text>
          )}
        </>
      )}
      {step.kind === 'uploading' && (
        <UploadProgress label={`Uploading photo (${formatBytes(step.bytes)})`} fraction={step.fraction} onCancel={() => abort.current?.abort()} />
      )}
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
