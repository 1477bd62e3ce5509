import { ActionIcon, Button, Fieldset, Group, Modal, NativeSelect, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useFieldArray } from 'react-hook-form';
import { z } from 'zod';
import { COLUMN_TYPES, ColumnTypeSchema, contextName } from '../../../../shared/projects.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { applyServerErrors, useZodForm, type FormValues } from '../../../lib/form.ts';
import { SwitchField, textField } from '../../../lib/form-fields.tsx';
import { ModalFormFooter } from '../../../components/modal-form-footer.tsx';
import { useCreateContext } from '../api.ts';
import { ErrorText } from '../../../components/error-text.tsx';

const column = () => z.string().trim().min(1, 'Give the column a name.').max(255, 'Must be at most 255 characters.');

const Schema = z
  .object({
    name: contextName(),
    description: z.string().max(1000, 'Must be at most 1000 characters.'),
    is_versioned: z.boolean(),
    allow_duplicates: z.boolean(),
    unique_keys: z.array(z.object({ column: column(), type: ColumnTypeSchema })).max(20, 'At most 20 unique key columns.'),
    auto_counting: z.array(z.object({ column: column(), parent: z.string().trim().max(255, 'Must be at most 255 characters.') })),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.unique_keys.forEach((k, i) => {
      if (seen.has(k.column)) ctx.addIssue({ code: 'custom', path: ['unique_keys', i, 'column'], message: 'This column is already a unique key.' });
      seen.add(k.column);
    });
    const counted = new Set<string>();
    v.auto_counting.forEach((c, i) => {
      if (counted.has(c.column)) ctx.addIssue({ code: 'custom', path: ['auto_counting', i, 'column'], message: 'This column is already counted.' });
      if (c.parent && c.parent === c.column) ctx.addIssue({ code: 'custom', path: ['auto_counting', i, 'parent'], message: 'A counter cannot count within itself.' });
      counted.add(c.column);
    });
  });
type Values = FormValues<typeof Schema>;

const defaults = (versioned: boolean): Values => ({ name: '', description: '', is_versioned: versioned, allow_duplicates: true, unique_keys: [], auto_counting: [] });

/** New context with its rules: versioning, duplicates, typed unique keys and counters. */
export function CreateContextModal({
  project,
  projectVersioned,
  initialName,
  opened,
  onClose,
  onCreated,
}: {
  project: string;
  projectVersioned: boolean;
  initialName?: string;
  opened: boolean;
  onClose: () => void;
  onCreated: (name: string) => void;
}) {
  const create = useCreateContext(project);
  const form = useZodForm(Schema, { defaultValues: defaults(projectVersioned) });
  const keys = useFieldArray({ control: form.control, name: 'unique_keys' });
  const counters = useFieldArray({ control: form.control, name: 'auto_counting' });
  const { errors, isSubmitting } = form.formState;
  useEffect(() => {
    if (opened) form.reset({ ...defaults(projectVersioned), name: initialName ?? '' });
  }, [opened, projectVersioned, initialName, form]);

  const submit = form.handleSubmit(async (values) => {
    try {
      const created = await create.mutateAsync({
        name: values.name,
        description: values.description || null,
        is_versioned: values.is_versioned,
        allow_duplicates: values.allow_duplicates,
        unique_keys: Object.fromEntries(values.unique_keys.map((k) => [k.column, k.type])),
        auto_counting: Object.fromEntries(values.auto_counting.map((c) => [c.column, c.parent || null])),
      });
      onClose();
      onCreated(created.name);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && /already exists/.test(error.detail)) {
        form.setError('name', { type: 'server', message: error.detail });
        return;
      }
      applyServerErrors(error, form.setError, ['name', 'description']);
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title="Create a context" centered size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Name"
            description='Letters, digits, "_", "-", "." and "/"; a "/" groups contexts into folders'
            required
            autoComplete="off"
            data-autofocus
            {...textField(form, 'name', { blank: 'keep' })}
          />
          <Textarea label="Description" autosize minRows={1} maxRows={4} {...textField(form, 'description', { blank: 'keep' })} />
          <SwitchField control={form.control} name="is_versioned" label="Versioned" description="Keep a commit history of the rows, with rollback" />
          <SwitchField
            control={form.control}
            name="allow_duplicates"
            label="Allow duplicate rows"
            description="When off, a row identical to an existing one is refused"
          />

          <Fieldset legend="Unique keys" variant="filled">
            <Stack gap="xs">
              <Text size="xs" c="dimmed">
                Every row must have these columns with these types, and no two rows may share the same values.
              </Text>
              {keys.fields.map((field, index) => (
                <Group key={field.id} align="flex-start" gap="xs" wrap="nowrap">
                  <TextInput
                    label={`Unique key ${index + 1} column`}
                    placeholder="column"
                    style={{ flex: 1 }}
                    {...textField(form, `unique_keys.${index}.column`, { blank: 'keep' })}
                  />
                  <NativeSelect
                    label="Type"
                    aria-label={`Unique key ${index + 1} type`}
                    data={[...COLUMN_TYPES]}
                    w={130}
                    {...textField(form, `unique_keys.${index}.type`, { blank: 'keep' })}
                  />
                  <ActionIcon variant="subtle" color="red" mt={26} aria-label={`Remove unique key ${index + 1}`} onClick={() => keys.remove(index)}>
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              ))}
              <ErrorText>{errors.unique_keys?.message}</ErrorText>
              <div>
                <Button size="xs" variant="light" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => keys.append({ column: '', type: 'str' })}>
                  Add unique key
                </Button>
              </div>
            </Stack>
          </Fieldset>

          <Fieldset legend="Auto counting" variant="filled">
            <Stack gap="xs">
              <Text size="xs" c="dimmed">
                A counted column is filled with 1, 2, 3… on insert; with a parent column the count restarts for each parent value.
              </Text>
              {counters.fields.map((field, index) => (
                <Group key={field.id} align="flex-start" gap="xs" wrap="nowrap">
                  <TextInput
                    label={`Counter ${index + 1} column`}
                    placeholder="step"
                    style={{ flex: 1 }}
                    {...textField(form, `auto_counting.${index}.column`, { blank: 'keep' })}
                  />
                  <TextInput
                    label={`Counter ${index + 1} parent (optional)`}
                    placeholder="run"
                    style={{ flex: 1 }}
                    {...textField(form, `auto_counting.${index}.parent`, { blank: 'keep' })}
                  />
                  <ActionIcon variant="subtle" color="red" mt={26} aria-label={`Remove counter ${index + 1}`} onClick={() => counters.remove(index)}>
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              ))}
              <div>
                <Button size="xs" variant="light" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => counters.append({ column: '', parent: '' })}>
                  Add counter
                </Button>
              </div>
            </Stack>
          </Fieldset>

          <ModalFormFooter error={errors.root?.server?.message} onCancel={onClose} submitLabel="Create context" submitting={isSubmitting} />
        </Stack>
      </form>
    </Modal>
  );
}
