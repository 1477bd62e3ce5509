import { useFormState, useWatch, type Control, type FieldPath, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { MAX_PARALLEL_MAX, MAX_PARALLEL_MIN, WEEKLY_LIMIT_MAX, WEEKLY_LIMIT_MIN, type VoiceProvider } from '../../../../shared/assistant-rules.ts';
import { NumberField } from '../../../lib/form-fields.tsx';
import { providerOf } from '../format.ts';
import { VoiceField } from './voice-field.tsx';

// Fields the hire form and the configuration form both hold, written once. Each form has its own
// values type, so the components take any form with these fields; react-hook-form cannot resolve a
// path into a type parameter, hence the one cast per name.

interface WorkLimits {
  weekly_limit: number | null;
  max_parallel: number | null;
}

/** Weekly hours and parallel tasks, with the bounds the server enforces. */
export function WorkLimitFields<T extends FieldValues & WorkLimits>({ control }: { control: Control<T, unknown, unknown> }) {
  const path = (name: keyof WorkLimits) => name as FieldPath<T>;
  return (
    <>
      <NumberField
        control={control}
        name={path('weekly_limit')}
        label="Weekly limit (hours)"
        description={`${WEEKLY_LIMIT_MIN}–${WEEKLY_LIMIT_MAX} hours; empty for no limit.`}
        min={WEEKLY_LIMIT_MIN}
        max={WEEKLY_LIMIT_MAX}
        step={0.5}
        decimalScale={2}
      />
      <NumberField
        control={control}
        name={path('max_parallel')}
        label="Maximum parallel tasks"
        description={`${MAX_PARALLEL_MIN}–${MAX_PARALLEL_MAX}.`}
        min={MAX_PARALLEL_MIN}
        max={MAX_PARALLEL_MAX}
        allowDecimal={false}
      />
    </>
  );
}

interface VoiceChoice {
  voice_id: string | null;
  voice_provider: VoiceProvider | null;
}

/** The voice picker bound to the form: choosing a voice sets its id and provider together. */
export function AssistantVoiceField<T extends FieldValues & VoiceChoice>({ form, canClone }: { form: UseFormReturn<T, unknown, unknown>; canClone: boolean }) {
  const voiceForm = form as unknown as UseFormReturn<VoiceChoice, unknown, unknown>;
  // Subscribed here, not read off the parent's render: the field follows the form on its own.
  const value = useWatch({ control: voiceForm.control, name: 'voice_id' });
  const { errors } = useFormState({ control: voiceForm.control, name: ['voice_id', 'voice_provider'] });
  return (
    <VoiceField
      value={value}
      onChange={(voice) => {
        voiceForm.setValue('voice_id', voice?.voice_id ?? null, { shouldDirty: true });
        voiceForm.setValue('voice_provider', voice ? providerOf(voice) : null, { shouldDirty: true });
      }}
      error={errors.voice_id?.message ?? errors.voice_provider?.message}
      canClone={canClone}
    />
  );
}
