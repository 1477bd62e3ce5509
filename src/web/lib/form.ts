import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type FieldValues, type Path, type Resolver, type UseFormProps, type UseFormSetError } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError, errorMessage } from './api-client.ts';

/**
 * What a form holds for a schema: every field of its output, present (an optional text field holds
 * '' until it is sent). Forms whose fields differ from the request (a file, a confirmation) pick or
 * extend the schema instead of writing the type by hand.
 */
export type FormValues<S extends z.ZodType> = { [K in keyof z.output<S>]-?: Exclude<z.output<S>[K], undefined> };

/**
 * react-hook-form validated by a zod schema: the values' types come from the schema, and
 * `handleSubmit` hands over the parsed output. The one place the resolver's types are bridged.
 * A form whose inputs hold something else than the schema's output (null for "not given", cleaned
 * by a preprocess step) names its values type as the second type argument.
 */
export function useZodForm<S extends z.ZodType<FieldValues, unknown>, V extends FieldValues = FormValues<S>>(
  schema: S,
  options: Omit<UseFormProps<V, unknown, z.output<S>>, 'resolver'> = {},
) {
  const resolver = zodResolver(schema as never) as unknown as Resolver<V, unknown, z.output<S>>;
  return useForm<V, unknown, z.output<S>>({ ...options, resolver });
}

/**
 * Puts a server 422 on the fields it names; anything left (or any other error) goes to `root.server`,
 * which forms show above the submit button. Returns the message shown at the root, if any.
 */
export function applyServerErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>, knownFields: readonly string[] = []): string | null {
  if (error instanceof ApiError && Object.keys(error.fieldErrors).length > 0) {
    const leftovers: string[] = [];
    for (const [field, message] of Object.entries(error.fieldErrors)) {
      if (knownFields.length === 0 || knownFields.includes(field)) setError(field as Path<T>, { type: 'server', message });
      else leftovers.push(`${field}: ${message}`);
    }
    if (leftovers.length === 0) return null;
    const message = leftovers.join('; ');
    setError('root.server' as Path<T>, { type: 'server', message });
    return message;
  }
  const message = errorMessage(error);
  setError('root.server' as Path<T>, { type: 'server', message });
  return message;
}
