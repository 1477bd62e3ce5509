import { Alert, Button, Group, type MantineColor } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The end of a form in a modal: what went wrong, above Cancel and the submit button. `extra` goes
 * above the error (upload progress). Every modal form ends with it, whatever drives the form.
 */
export function ModalFormFooter({
  error,
  errorTitle,
  onCancel,
  submitLabel,
  submitting,
  submitColor,
  submitDisabled,
  extra,
}: {
  error?: string | null;
  /** A heading for the error ("The row was not saved"). */
  errorTitle?: string;
  onCancel: () => void;
  submitLabel: ReactNode;
  submitting: boolean;
  /** `red` for a destructive action. */
  submitColor?: MantineColor;
  submitDisabled?: boolean;
  extra?: ReactNode;
}) {
  return (
    <>
      {extra}
      {error && (
        <Alert color="red" variant="light" role="alert" title={errorTitle}>
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" color={submitColor} disabled={submitDisabled} loading={submitting}>
          {submitLabel}
        </Button>
      </Group>
    </>
  );
}
