import { Skeleton, Stack, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { CreatePersonalKeyInput } from '../../../../shared/keys.ts';
import { EmptyState } from '../../../components/empty-state.tsx';
import { GatedButton } from '../../../components/gated-button.tsx';
import { ModalFormFooter } from '../../../components/modal-form-footer.tsx';
import { QueryList } from '../../../components/list-kit.tsx';
import { apiKeyMutations, apiKeyQueries } from '../../../data/keys.ts';
import { applyServerErrors, useZodForm } from '../../../lib/form.ts';
import { textField } from '../../../lib/form-fields.tsx';
import { useApiMutation } from '../../../lib/mutation.ts';
import { CreateKeyModal } from './create-key-modal.tsx';
import { KeysTable } from './keys-table.tsx';

function CreatePersonalKeyForm({ reveal, close }: { reveal: (created: { name: string; apiKey: string }) => void; close: () => void }) {
  const create = useApiMutation(apiKeyMutations.createPersonal);
  const form = useZodForm(CreatePersonalKeyInput, { defaultValues: { name: '' } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ name }) => {
    try {
      const key = await create.mutateAsync(name);
      reveal({ name, apiKey: key.api_key });
    } catch (error) {
      applyServerErrors(error, form.setError, ['name']);
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label="Name"
          description="What uses it, e.g. “CI deploys” or “laptop scripts”"
          required
          data-autofocus
          {...textField(form, 'name', { blank: 'keep' })}
        />
        <ModalFormFooter error={errors.root?.server?.message} onCancel={close} submitLabel="Create key" submitting={isSubmitting} />
      </Stack>
    </form>
  );
}

/** The person's own keys: each acts as them everywhere they are (personal space, their organizations by role). */
export function PersonalKeysSection() {
  const keys = useQuery(apiKeyQueries.personal());
  const revoke = useApiMutation(apiKeyMutations.revokePersonal);
  const [opened, { open, close }] = useDisclosure(false);
  const createButton = (
    <GatedButton reason={null} icon={<IconPlus size={16} aria-hidden />} onClick={open}>
      Create key
    </GatedButton>
  );
  return (
    <Stack gap="sm">
      <div>{createButton}</div>
      <QueryList
        query={keys}
        loading={<Skeleton height={120} />}
        errorTitle="Could not load your keys"
        empty={<EmptyState icon={<IconKey size={24} />} title="No personal keys" description="Create one for a script or a program that calls the API as you." />}
      >
        {(list) => <KeysTable keys={list} label="Personal API keys" revokeReason={null} onRevoke={(key) => revoke.mutate(key.id)} />}
      </QueryList>
      <CreateKeyModal
        opened={opened}
        onClose={close}
        title="Create a personal API key"
        form={(reveal, closeModal) => <CreatePersonalKeyForm reveal={reveal} close={closeModal} />}
      />
    </Stack>
  );
}
