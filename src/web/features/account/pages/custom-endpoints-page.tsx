import { Code, Modal, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPlugConnected, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { CustomEndpointInput } from '../../../../shared/custom-endpoints.ts';
import { DeleteRowButton } from '../../../components/delete-row-button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { GatedButton } from '../../../components/gated-button.tsx';
import { ListTable, QueryList, RowActions } from '../../../components/list-kit.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { applyServerErrors, useZodForm } from '../../../lib/form.ts';
import { textField } from '../../../lib/form-fields.tsx';
import { ModalFormFooter } from '../../../components/modal-form-footer.tsx';
import { missingPermission, useMe } from '../../../lib/use-me.ts';
import { customEndpointQueries } from '../../../data/custom-endpoints.ts';
import { useCreateCustomEndpoint, useDeleteCustomEndpoint } from '../api.ts';

function AddEndpointModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateCustomEndpoint();
  const form = useZodForm(CustomEndpointInput, { defaultValues: { name: '', url: '', model_arg: '', key_name: '' } });
  const { errors, isSubmitting } = form.formState;
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = form.handleSubmit(async (values) => {
    try {
      await create.mutateAsync({ ...values, key_name: values.key_name || null });
      close();
    } catch (error) {
      applyServerErrors(error, form.setError, ['name', 'url', 'model_arg', 'key_name']);
    }
  });
  return (
    <Modal opened={opened} onClose={close} title="Add a custom endpoint" centered closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label="Name" description="How you refer to it, e.g. my-model@custom" required data-autofocus {...textField(form, 'name', { blank: 'keep' })} />
          <TextInput
            label="URL"
            description="OpenAI-compatible base URL (http or https)"
            placeholder="https://llm.example.com/v1"
            required
            {...textField(form, 'url', { blank: 'keep' })}
          />
          <TextInput label="Model argument" description="The model name sent to the endpoint" required {...textField(form, 'model_arg', { blank: 'keep' })} />
          <TextInput label="Key name" description="Name of the secret holding the endpoint's API key (optional)" {...textField(form, 'key_name', { blank: 'keep' })} />
          <ModalFormFooter error={errors.root?.server?.message} onCancel={close} submitLabel="Add endpoint" submitting={isSubmitting} />
        </Stack>
      </form>
    </Modal>
  );
}

export function CustomEndpointsPage() {
  const endpoints = useQuery(customEndpointQueries.list());
  const me = useMe();
  const remove = useDeleteCustomEndpoint();
  const [opened, { open, close }] = useDisclosure(false);
  const cannotWrite = missingPermission(me.data, 'project:write');

  const addButton = (
    <GatedButton reason={cannotWrite} icon={<IconPlus size={16} aria-hidden />} onClick={open}>
      Add endpoint
    </GatedButton>
  );

  const content = (
    <QueryList
      query={endpoints}
      loading={<Skeleton height={160} />}
      empty={
        <EmptyState
          icon={<IconPlugConnected size={24} />}
          title="No custom endpoints yet"
          description="Register an OpenAI-compatible model endpoint to use your own models in this workspace."
          action={addButton}
        />
      }
    >
      {(list) => (
        <ListTable columns={['Name', 'URL', 'Model argument', 'Key name']} actions minWidth={640}>
          {list.map((endpoint) => (
            <Table.Tr key={endpoint.name}>
              <Table.Td fw={500}>{endpoint.name}</Table.Td>
              <Table.Td>
                <Code>{endpoint.url}</Code>
              </Table.Td>
              <Table.Td>{endpoint.model_arg}</Table.Td>
              <Table.Td>{endpoint.key_name ?? <Text c="dimmed">—</Text>}</Table.Td>
              <RowActions>
                <DeleteRowButton
                  label={`Delete ${endpoint.name}`}
                  reason={cannotWrite}
                  tooltip
                  confirm={{
                    title: `Delete ${endpoint.name}?`,
                    message: 'Anything that uses this endpoint by name will stop working.',
                    confirmLabel: 'Delete endpoint',
                    onConfirm: () => remove.mutate(endpoint.name),
                  }}
                />
              </RowActions>
            </Table.Tr>
          ))}
        </ListTable>
      )}
    </QueryList>
  );

  return (
    <>
      <PageHeader
        title="Custom endpoints"
        description="OpenAI-compatible model endpoints registered in this workspace."
        actions={endpoints.data?.length ? addButton : undefined}
      />
      {content}
      <AddEndpointModal opened={opened} onClose={close} />
    </>
  );
}
