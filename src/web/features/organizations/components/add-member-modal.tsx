import { Button, Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { z } from 'zod';
import { AddMemberInput } from '../../../../shared/organizations.ts';
import { ROLE_IDS } from '../../../../shared/roles.ts';
import { SecretReveal } from '../../../components/secret-reveal.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useZodForm } from '../../../lib/form.ts';
import { useAddMember } from '../api.ts';
import { RoleSelect } from './role-select.tsx';

// The server's rules, after a request in the dashboard's words for an empty id.
const AddMemberForm = AddMemberInput.extend({
  user_id: z.string().trim().min(1, 'Enter the user id.').pipe(AddMemberInput.shape.user_id),
});

/** Adds an existing user by id with a role; their organization key is shown once. */
export default function AddMemberModal({ orgId, opened, onClose }: { orgId: number; opened: boolean; onClose: () => void }) {
  const add = useAddMember();
  const [key, setKey] = useState<string | null>(null);
  const form = useZodForm(AddMemberForm, { defaultValues: { user_id: '', role_id: ROLE_IDS.Member } });
  const close = () => {
    form.reset();
    setKey(null);
    onClose();
  };
  const submit = form.handleSubmit(async (member) => {
    try {
      const res = await add.mutateAsync({ organizationId: orgId, member });
      setKey(res.api_key);
    } catch (err) {
      form.setError('user_id', { type: 'server', message: errorMessage(err) });
    }
  });
  return (
    <Modal opened={opened} onClose={close} title="Add member by user id" closeButtonProps={{ 'aria-label': 'Close' }}>
      {key ? (
        <Stack>
          <SecretReveal label="New member’s organization API key" value={key} note="Give it to the new member. It is shown only once." />
          <Button onClick={close}>Done</Button>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput label="User id" required error={form.formState.errors.user_id?.message} data-autofocus {...form.register('user_id')} />
            <Controller control={form.control} name="role_id" render={({ field }) => <RoleSelect value={field.value} onChange={field.onChange} />} />
            <Button type="submit" loading={add.isPending}>
              Add member
            </Button>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
