import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError, errorMessage } from './api-client.ts';

/**
 * Puts a server 422 on the fields it names; anything left (or any other error) goes to `root.server`,
 * which forms show above the submit button. Returns the message shown at the root, if any.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  knownFields: readonly string[] = [],
): string | null {
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
