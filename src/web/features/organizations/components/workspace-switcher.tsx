import { Button, Menu, Modal, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBuilding, IconCheck, IconChevronDown, IconPlus, IconUser } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { SecretReveal } from '../../../components/secret-reveal.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.ts';
import { useMe, workspaceName } from '../../../lib/use-me.ts';
import type { CreatedOrganization } from '../../../../shared/organizations.ts';
import { useCreateOrganization } from '../api.ts';

/** Header menu: the workspaces this session holds keys for, and "create organization". */
export function WorkspaceSwitcher() {
  const me = useMe();
  const session = useSession();
  const navigate = useNavigate();
  const [opened, { open, close }] = useDisclosure(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedOrganization | null>(null);
  const create = useCreateOrganization();

  if (me.isPending) return <Skeleton height={30} width={160} />;
  const current = me.data ? workspaceName(me.data) : 'Workspace';
  const role = me.data?.key.role_name;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError('Enter a name.');
    try {
      const org = await create.mutateAsync(name.trim());
      session.addKey(org.api_key, org.name);
      setCreated(org);
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  const closeModal = () => {
    close();
    setCreated(null);
    setName('');
    setError(null);
  };

  return (
    <>
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <Button
            variant="light"
            size="compact-md"
            rightSection={<IconChevronDown size={14} aria-hidden />}
            aria-label={`Workspace: ${current}${role ? `, role ${role}` : ''}. Switch workspace`}
          >
            {current}
            {role ? ` · ${role}` : ''}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>Workspaces in this session</Menu.Label>
          {session.keys.map((k) => {
            const active = k.key === session.key;
            const label = k.label || 'Personal';
            return (
              <Menu.Item
                key={k.key}
                leftSection={k.key.startsWith('rko_') ? <IconBuilding size={16} aria-hidden /> : <IconUser size={16} aria-hidden />}
                rightSection={active ? <IconCheck size={16} aria-label="current" /> : null}
                onClick={() => !active && session.switchKey(k.key)}
              >
                {k.key.startsWith('rko_') ? label : `${label === 'Personal' ? 'Personal workspace' : label}`}
              </Menu.Item>
            );
          })}
          <Menu.Divider />
          <Menu.Item leftSection={<IconPlus size={16} aria-hidden />} onClick={open}>
            Create organization
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Modal opened={opened} onClose={closeModal} title="Create organization" closeButtonProps={{ 'aria-label': 'Close' }}>
        {created ? (
          <Stack>
            <Text size="sm">
              {created.name} was created and you are its Owner. This session keeps its organization key; copy it if you need it
              elsewhere.
            </Text>
            <SecretReveal label="Organization API key" value={created.api_key} />
            <Button
              onClick={() => {
                session.switchKey(created.api_key);
                closeModal();
                navigate('/organization');
              }}
            >
              Switch to {created.name}
            </Button>
          </Stack>
        ) : (
          <form onSubmit={submit} noValidate>
            <Stack>
              <TextInput
                label="Organization name"
                required
                maxLength={100}
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                error={error}
                data-autofocus
              />
              <Button type="submit" loading={create.isPending}>
                Create
              </Button>
            </Stack>
          </form>
        )}
      </Modal>
    </>
  );
}
