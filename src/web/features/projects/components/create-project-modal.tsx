import { ActionIcon, Group, Input, Modal, Stack, Textarea, TextInput, Tooltip } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { ProjectInput } from '../../../../shared/projects.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { applyServerErrors, useZodForm } from '../../../lib/form.ts';
import { SwitchField, textField } from '../../../lib/form-fields.tsx';
import { ModalFormFooter } from '../../../components/modal-form-footer.tsx';
import { projectUrl, useCreateProject } from '../api.ts';
import { PROJECT_ICONS } from './project-icon.tsx';
import { useWorkspace } from '../../../lib/workspace.ts';

const Schema = ProjectInput.pick({ name: true, description: true, icon: true, is_versioned: true });
const DESCRIPTION_MAX = 256;

/** New project: the name is checked against the server's pattern as it is typed. */
export function CreateProjectModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const workspace = useWorkspace();
  const create = useCreateProject();
  const navigate = useNavigate();
  const form = useZodForm(Schema, {
    mode: 'onChange',
    defaultValues: { name: '', description: '', icon: 'folder', is_versioned: true },
  });
  const { errors, isSubmitting } = form.formState;
  const description = form.watch('description');
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = form.handleSubmit(async (values) => {
    try {
      await create.mutateAsync({ ...values, description: values.description || null });
      close();
      void navigate(workspace.path(projectUrl(values.name)));
    } catch (error) {
      // A duplicate is a 400 whose wording the real service fixed; it belongs on the name.
      if (error instanceof ApiError && error.status === 400 && /already exists/.test(error.detail)) {
        form.setError('name', { type: 'server', message: error.detail });
        return;
      }
      applyServerErrors(error, form.setError, ['name', 'description', 'icon', 'is_versioned']);
    }
  });
  return (
    <Modal opened={opened} onClose={close} title="Create a project" centered closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Name"
            description='Letters, digits, "_", "-" and "/"; used by the API to refer to the project'
            required
            autoComplete="off"
            data-autofocus
            {...textField(form, 'name', { blank: 'keep' })}
          />
          <Textarea
            label="Description"
            autosize
            minRows={2}
            maxRows={5}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            description={`${description.length} / ${DESCRIPTION_MAX} characters`}
            {...textField(form, 'description', { blank: 'keep' })}
          />
          <Controller
            control={form.control}
            name="icon"
            render={({ field }) => (
              <div>
                <Input.Label id="project-icon-label" component="div">
                  Icon
                </Input.Label>
                <Group gap={6} role="radiogroup" aria-labelledby="project-icon-label" mt={4}>
                  {PROJECT_ICONS.map(({ value, label, icon: Icon }) => (
                    <Tooltip key={value} label={label} withArrow>
                      <ActionIcon
                        size="lg"
                        role="radio"
                        aria-checked={field.value === value}
                        aria-label={label}
                        variant={field.value === value ? 'filled' : 'default'}
                        onClick={() => field.onChange(value)}
                      >
                        <Icon size={18} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  ))}
                </Group>
              </div>
            )}
          />
          <SwitchField control={form.control} name="is_versioned" label="Versioned" description="New contexts keep a commit history you can roll back" />
          <ModalFormFooter error={errors.root?.server?.message} onCancel={close} submitLabel="Create project" submitting={isSubmitting} />
        </Stack>
      </form>
    </Modal>
  );
}
