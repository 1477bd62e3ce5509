import { NumberInput, Select, Switch, type NumberInputProps, type SelectProps, type SwitchProps } from '@mantine/core';
import type { ComponentType, Ref } from 'react';
import { get, useController, type Control, type FieldError, type FieldPath, type FieldValues, type UseFormReturn } from 'react-hook-form';

// Mantine inputs bound to a react-hook-form field (from useZodForm): value, change, blur, focus on error
// and the field's error message come from the form, so a form writes only what the input shows.
// Each reads `ref` off the field by destructuring: the React Compiler lint takes `field.ref` in JSX for a
// ref read during render and then flags every `field.*` (facebook/react#34775).

/** Empty text means "not given": held as null, as the schemas take it. */
export const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/**
 * Props for a Mantine TextInput or Textarea registered on the form, blank held as null:
 * `<TextInput label="Surname" {...textField(form, 'surname')} />`. Pass `{ blank: 'keep' }` for a field
 * whose schema wants the text as typed (a required name).
 */
export function textField<T extends FieldValues>(form: UseFormReturn<T, unknown, unknown>, name: FieldPath<T>, options: { blank?: 'null' | 'keep' } = {}) {
  const registered = form.register(name, options.blank === 'keep' ? {} : { setValueAs: blankToNull });
  return { ...registered, error: (get(form.formState.errors, name) as FieldError | undefined)?.message };
}

interface Bound<T extends FieldValues> {
  control: Control<T, unknown, unknown>;
  name: FieldPath<T>;
}

/** A number input; an empty (or unparsable) input holds null. */
export function NumberField<T extends FieldValues>({ control, name, ...props }: Bound<T> & Omit<NumberInputProps, 'value' | 'onChange' | 'name'>) {
  const { field, fieldState } = useController({ control, name });
  const { ref } = field;
  return (
    <NumberInput
      clampBehavior="none"
      {...props}
      ref={ref}
      name={field.name}
      value={field.value ?? ''}
      onChange={(v) => field.onChange(typeof v === 'number' && Number.isFinite(v) ? v : null)}
      onBlur={field.onBlur}
      error={fieldState.error?.message}
    />
  );
}

/**
 * A select; cleared holds null. `toValue` and `fromValue` translate between the choice shown and the
 * value held, for a field whose null is one of the choices (a default). `as` is a select with its own
 * options (CountrySelect, TimezoneSelect).
 */
export function SelectField<T extends FieldValues>({
  control,
  name,
  toValue = (choice) => choice,
  fromValue = (value) => (typeof value === 'string' ? value : null),
  as: Input = Select,
  ...props
}: Bound<T> &
  Omit<SelectProps, 'value' | 'onChange' | 'name'> & {
    toValue?: (choice: string | null) => unknown;
    fromValue?: (value: unknown) => string | null;
    as?: ComponentType<SelectProps & { ref?: Ref<HTMLInputElement> }>;
  }) {
  const { field, fieldState } = useController({ control, name });
  const { ref } = field;
  return (
    <Input
      {...props}
      ref={ref}
      name={field.name}
      value={fromValue(field.value)}
      onChange={(v) => field.onChange(toValue(v))}
      onBlur={field.onBlur}
      error={fieldState.error?.message}
    />
  );
}

/** A switch; a null value shows as off. */
export function SwitchField<T extends FieldValues>({ control, name, ...props }: Bound<T> & Omit<SwitchProps, 'checked' | 'onChange' | 'name'>) {
  const { field, fieldState } = useController({ control, name });
  const { ref } = field;
  return (
    <Switch
      {...props}
      ref={ref}
      name={field.name}
      checked={!!field.value}
      onChange={(e) => field.onChange(e.currentTarget.checked)}
      onBlur={field.onBlur}
      error={fieldState.error?.message}
    />
  );
}
