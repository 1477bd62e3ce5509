import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { DEFAULT_CLONE_VOICE_PROVIDER, VOICE_PROVIDERS, VoiceCloneFields, type Voice } from '../../../../shared/assistants.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { applyServerErrors } from '../../../lib/form.ts';
import { cloneVoice, invalidateVoices } from '../api.ts';
import { UploadProgress } from './upload-progress.tsx';
import { VoiceSampleInput } from './voice-sample-input.tsx';

interface Values {
  name: string;
  language: string | null;
  description: string | null;
  gender: string | null;
  provider: string;
}
type Parsed = z.output<typeof VoiceCloneFields>;
const resolver = zodResolver(VoiceCloneFields) as unknown as Resolver<Values, unknown, Parsed>;
const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

export const PROVIDER_LABELS: Record<string, string> = { cartesia: 'Cartesia', elevenlabs: 'ElevenLabs' };

/** Clone a voice from a sample (file or microphone), listened to before it is sent, with upload progress. */
export function CloneVoiceModal({ opened, onClose, onCloned }: { opened: boolean; onClose: () => void; onCloned?: (voice: Voice) => void }) {
  const client = useQueryClient();
  const [sample, setSample] = useState<File | null>(null);
  const [sampleError, setSampleError] = useState<string | undefined>();
  const [progress, setProgress] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);
  const form = useForm<Values, unknown, Parsed>({
    resolver,
    defaultValues: { name: '', language: null, description: null, gender: null, provider: DEFAULT_CLONE_VOICE_PROVIDER },
  });
  const { errors, isSubmitting } = form.formState;

  useEffect(() => () => abort.current?.abort(), []);

  const close = () => {
    abort.current?.abort();
    form.reset();
    setSample(null);
    setSampleError(undefined);
    setProgress(null);
    onClose();
  };

  const submit = form.handleSubmit(async (values) => {
    if (!sample) {
      setSampleError('Add a voice sample: upload a file or record one.');
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    setProgress(0);
    try {
      const voice = await cloneVoice(values, sample, { onProgress: setProgress, signal: controller.signal });
      await invalidateVoices(client);
      notifications.show({ color: 'teal', message: `Voice ${voice.name} is ready.` });
      onCloned?.(voice);
      close();
    } catch (error) {
      setProgress(null);
      if ((error as Error).name === 'AbortError') return;
      // The sample's own problems (too large, not audio) belong next to the sample.
      if (error instanceof ApiError && (error.status === 413 || error.status === 415 || error.fieldErrors.file)) {
        setSampleError(error.fieldErrors.file ?? error.detail);
        return;
      }
      applyServerErrors(error, form.setError, ['name', 'language', 'description', 'gender', 'provider']);
    } finally {
      abort.current = null;
    }
  });

  return (
    <Modal opened={opened} onClose={close} title="Clone a voice" centered size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      {/* The modal is portalled but React events still bubble to a form around the opener: stop there. */}
      <form
        onSubmit={(e) => {
          e.stopPropagation();
          void submit(e);
        }}
        noValidate
      >
        <Stack gap="sm">
          <TextInput label="Voice name" required data-autofocus error={errors.name?.message} {...form.register('name')} />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput label="Language" placeholder="e.g. en" error={errors.language?.message} {...form.register('language', { setValueAs: blankToNull })} />
            <Controller
              control={form.control}
              name="gender"
              render={({ field }) => (
                <Select
                  label="Gender"
                  placeholder="Not set"
                  clearable
                  clearButtonProps={{ 'aria-label': 'Clear gender' }}
                  data={['female', 'male', 'neutral']}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  error={errors.gender?.message}
                />
              )}
            />
            <Controller
              control={form.control}
              name="provider"
              render={({ field }) => (
                <Select
                  label="Provider"
                  data={VOICE_PROVIDERS.map((p) => ({ value: p, label: PROVIDER_LABELS[p] ?? p }))}
                  allowDeselect={false}
                  value={field.value}
                  onChange={(v) => field.onChange(v ?? DEFAULT_CLONE_VOICE_PROVIDER)}
                  onBlur={field.onBlur}
                  error={errors.provider?.message}
                />
              )}
            />
          </SimpleGrid>
          <Textarea label="Description" autosize minRows={2} maxRows={4} error={errors.description?.message} {...form.register('description', { setValueAs: blankToNull })} />
          <div>
            <Text size="sm" fw={500} mb={4}>
              Voice sample{' '}
              <Text span c="var(--mantine-color-error)" aria-hidden>
                *
              </Text>
            </Text>
            <VoiceSampleInput
              value={sample}
              onChange={(file) => {
                setSample(file);
                setSampleError(undefined);
              }}
              error={sampleError}
            />
          </div>
          {progress !== null && <UploadProgress label="Uploading voice sample" fraction={progress} onCancel={() => abort.current?.abort()} />}
          {errors.root?.server && (
            <Alert color="red" role="alert">
              {errors.root.server.message}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={isSubmitting}>
              Clone voice
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
