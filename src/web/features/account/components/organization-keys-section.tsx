import { Badge, Button, Checkbox, Group, Select, SimpleGrid, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useController } from 'react-hook-form';
import { CreateOrganizationKeyInput } from '../../../../shared/keys.ts';
import { PERMISSIONS, SYSTEM_ROLES, type Permission } from '../../../../shared/roles.ts';
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

/** An organization whose keys the caller may manage, and the permissions they hold there (a new key gets at most these). */
export interface ManagedOrganization {
  id: number;
  name: string;
  roleName: string;
  held: readonly Permission[];
}

function CreateOrganizationKeyForm({
  organization,
  reveal,
  close,
}: {
  organization: ManagedOrganization;
  reveal: (created: { name: string; apiKey: string }) => void;
  close: () => void;
}) {
  const create = useApiMutation(apiKeyMutations.createOrganization);
  const viewer = SYSTEM_ROLES.find((r) => r.name === 'Viewer')!;
  const form = useZodForm(CreateOrganizationKeyInput, { defaultValues: { name: '', permissions: viewer.permissions.filter((p) => organization.held.includes(p)) } });
  const { field, fieldState } = useController({ control: form.control, name: 'permissions' });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (body) => {
    try {
      const key = await create.mutateAsync({ organizationId: organization.id, body });
      reveal({ name: body.name, apiKey: key.api_key });
    } catch (error) {
      applyServerErrors(error, form.setError, ['name', 'permissions']);
    }
  });
  // Presets: a role's permissions, as far as the creator holds them.
  const presets = SYSTEM_ROLES.filter((r) => r.permissions.every((p) => organization.held.includes(p)));
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label="Name" description="What uses it, e.g. “nightly export”" required data-autofocus {...textField(form, 'name', { blank: 'keep' })} />
        <Checkbox.Group
          label="Permissions"
          description={`The key acts as you in ${organization.name}, with these permissions, never more than your role (${organization.roleName}) grants.`}
          value={field.value}
          onChange={(value) => field.onChange(value as Permission[])}
          error={fieldState.error?.message}
        >
          <Group gap="xs" mt="xs" mb="xs">
            {presets.map((role) => (
              <Button key={role.id} size="compact-xs" variant="light" onClick={() => field.onChange([...role.permissions])}>
                Like a {role.name}
              </Button>
            ))}
          </Group>
          <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs">
            {PERMISSIONS.map((p) => (
              <Checkbox key={p} value={p} label={p} disabled={!organization.held.includes(p)} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <ModalFormFooter error={errors.root?.server?.message} onCancel={close} submitLabel="Create key" submitting={isSubmitting} />
      </Stack>
    </form>
  );
}

function OrganizationKeys({ organization }: { organization: ManagedOrganization }) {
  const keys = useQuery(apiKeyQueries.organization(organization.id));
  const revoke = useApiMutation(apiKeyMutations.revokeOrganization);
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <Stack gap="sm">
      <div>
        <GatedButton reason={null} icon={<IconPlus size={16} aria-hidden />} onClick={open}>
          Create organization key
        </GatedButton>
      </div>
      <QueryList
        query={keys}
        loading={<Skeleton height={120} />}
        errorTitle="Could not load the organization’s keys"
        empty={<EmptyState icon={<IconKey size={24} />} title="No organization keys" description="Create one for a program that works in this organization only." />}
      >
        {(list) => (
          <KeysTable
            keys={list}
            label={`API keys of ${organization.name}`}
            revokeReason={null}
            onRevoke={(key) => revoke.mutate({ organizationId: organization.id, keyId: key.id })}
            extra={{
              columns: ['Acts as', 'Permissions'],
              cells: (key) => (
                <>
                  <Table.Td>{key.holder}</Table.Td>
                  <Table.Td>
                    {key.permissions === null ? (
                      <Text size="sm" c="dimmed">
                        The member’s role
                      </Text>
                    ) : (
                      <Group gap={4}>
                        {key.permissions.map((p) => (
                          <Badge key={p} size="xs" variant="default" tt="none">
                            {p}
                          </Badge>
                        ))}
                      </Group>
                    )}
                  </Table.Td>
                </>
              ),
            }}
          />
        )}
      </QueryList>
      <CreateKeyModal
        opened={opened}
        onClose={close}
        title={`Create a key for ${organization.name}`}
        form={(reveal, closeModal) => <CreateOrganizationKeyForm organization={organization} reveal={reveal} close={closeModal} />}
      />
    </Stack>
  );
}

/** Organization keys of the organizations the caller administers (Owner or Admin: the org:write permission). */
export function OrganizationKeysSection({ organizations }: { organizations: ManagedOrganization[] }) {
  const [chosen, setChosen] = useState<string | null>(null);
  const current = organizations.find((o) => String(o.id) === chosen) ?? organizations[0];
  if (!current) {
    return <Text size="sm">You are not an Owner or Admin of any organization: organization keys are managed by them.</Text>;
  }
  return (
    <Stack gap="sm">
      {organizations.length > 1 && (
        <Select
          label="Organization"
          data={organizations.map((o) => ({ value: String(o.id), label: `${o.name} (${o.roleName})` }))}
          value={String(current.id)}
          onChange={setChosen}
          allowDeselect={false}
          maw={360}
        />
      )}
      <OrganizationKeys key={current.id} organization={current} />
    </Stack>
  );
}
