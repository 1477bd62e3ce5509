import { Modal, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { DEFAULT_CLONE_VOICE_PROVIDER, VOICE_PROVIDERS, VoiceCloneFields, type Voice, type VoiceClone } from '../../../../shared/assistants.ts';
import { voiceMutations, voiceQueries } from '../../../data/voices.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { applyServerErrors, useZodForm, type FormValues } from '../../../lib/form.ts';
import { SelectField, textField } from '../../../lib/form-fields.tsx';
import { ModalFormFooter } from '../../../components/modal-form-footer.tsx';
import { useApiMutation } from '../../../lib/mutation.ts';
import { UploadProgress } from './upload-progress.tsx';
import { VoiceSampleInput } from './voice-sample-input.tsx';

type Fields = FormValues<typeof VoiceCloneFields>;
/** The optional fields hold null until given; the name and provider always hold a value. */
type Values = { [K in keyof Fields]: K extends 'name' | 'provider' ? Fields[K] : Fields[K] | null };
const FIELDS = Object.keys(VoiceCloneFields.shape);

export const PROVIDER_LABELS: Record<string, string> = { cartesia: 'Cartesia', elevenlabs: 'ElevenLabs' };

/** Clone a voice from a sample (file or microphone), listened to before it is sent, with upload progress. */
export function CloneVoiceModal({ opened, onClose, onCloned }: { opened: boolean; onClose: () => void; onCloned?: (voice: Voice) => void }) {
  const client = useQueryClient();
  const clone = useApiMutation(voiceMutations.clone);
  const [sample, setSample] = useState<File | null>(null);
  const [sampleError, setSampleError] = useState<string | undefined>();
  const [progress, setProgress] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);
  const form = useZodForm<typeof VoiceCloneFields, Values>(VoiceCloneFields, {
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

  // Handed to handleSubmit in the submit event, not during render: it writes the abort ref.
  const send = async (values: VoiceClone) => {
    if (!sample) {
      setSampleError('Add a voice sample: upload a file or record one.');
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    setProgress(0);
    try {
      const voice = await clone.mutateAsync({ fields: values, file: sample, onProgress: setProgress, signal: controller.signal });
      // The refreshed list (the clone invalidated it) has the new voice before the caller selects it.
      await client.fetchQuery(voiceQueries.list());
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
      applyServerErrors(error, form.setError, FIELDS);
    } finally {
      abort.current = null;
    }
  };

  return (
    <Modal opened={opened} onClose={close} title="Clone a voice" centered size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      {/* The modal is portalled but React events still bubble to a form around the opener: stop there. */}
      <form
        onSubmit={(e) => {
          e.stopPropagation();
          void form.handleSubmit(send)(e);
        }}
        noValidate
      >
        <Stack gap="sm">
          <TextInput label="Voice name" required data-autofocus {...textField(form, 'name', { blank: 'keep' })} />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput label="Language" placeholder="e.g. en" {...textField(form, 'language')} />
            <SelectField
              control={form.control}
              name="gender"
              label="Gender"
              placeholder="Not set"
              clearable
              clearButtonProps={{ 'aria-label': 'Clear gender' }}
              data={['female', 'male', 'neutral']}
            />
            <SelectField
              control={form.control}
              name="provider"
              label="Provider"
              data={VOICE_PROVIDERS.map((p) => ({ value: p, label: PROVIDER_LABELS[p] ?? p }))}
              allowDeselect={false}
              toValue={(choice) => choice ?? DEFAULT_CLONE_VOICE_PROVIDER}
            />
          </SimpleGrid>
          <Textarea label="Description" autosize minRows={2} maxRows={4} {...textField(form, 'description')} />
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
          <ModalFormFooter
            extra={progress !== null && <UploadProgress label="Uploading voice sample" fraction={progress} onCancel={() => abort.current?.abort()} />}
            error={errors.root?.server?.message}
            onCancel={close}
            submitLabel="Clone voice"
            submitting={isSubmitting}
          />
        </Stack>
      </form>
    </Modal>
  );
}
