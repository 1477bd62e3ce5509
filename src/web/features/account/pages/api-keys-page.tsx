import { Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { SYSTEM_ROLES } from '../../../../shared/roles.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { Section } from '../../../components/section.tsx';
import type { Me } from '../../../data/account.ts';
import { organizationQueries } from '../../../data/organizations.ts';
import { useMe } from '../../../lib/use-me.ts';
import { OrganizationKeysSection, type ManagedOrganization } from '../components/organization-keys-section.tsx';
import { PersonalKeysSection } from '../components/personal-keys-section.tsx';
import { RevokeAllKeys } from '../components/revoke-all-keys.tsx';

/** Signed in as the person: every organization where their role grants org:write (Owner, Admin). */
function ManagedByPerson() {
  const mine = useQuery(organizationQueries.mine());
  if (mine.isPending) return <Skeleton height={120} />;
  if (mine.isError) return <ErrorAlert error={mine.error} onRetry={() => void mine.refetch()} />;
  const managed = mine.data.flatMap((o): ManagedOrganization[] => {
    const role = SYSTEM_ROLES.find((r) => r.id === o.role_id);
    return role?.permissions.includes('org:write') ? [{ id: o.id, name: o.name, roleName: o.role_name, held: role.permissions }] : [];
  });
  return <OrganizationKeysSection organizations={managed} />;
}

/** Signed in with an organization key: its own organization, if the key may manage keys there. */
function managedByKey(me: Me): ManagedOrganization[] {
  const { organization_id, organization_name, role_name, permissions } = me.key;
  if (organization_id === null || !permissions.includes('org:write')) return [];
  return [{ id: organization_id, name: organization_name ?? 'Organization', roleName: role_name ?? 'member', held: permissions }];
}

export function ApiKeysPage() {
  const me = useMe();
  if (me.isPending) return <Skeleton height={240} />;
  if (me.isError) return <ErrorAlert error={me.error} onRetry={() => void me.refetch()} />;
  const orgKey = me.data.key.kind === 'organization';
  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys for programs and scripts that call the Roster API. Each is shown once, when it is created; Roster keeps only its hash."
      />
      <Stack gap="lg">
        <Section
          title="Personal keys"
          id="keys-personal"
          description="A personal key acts as you: your personal workspace, and in each organization your current role there. Last used is recorded to the minute."
        >
          {orgKey ? (
            <Text size="sm">This browser is signed in with an organization key: sign in as yourself (e-mail link or personal key) to manage your personal keys.</Text>
          ) : (
            <PersonalKeysSection />
          )}
        </Section>

        <Section
          title="Organization keys"
          id="keys-organization"
          description="An organization key works in its organization only, with the lesser of its own permissions and its member’s current role. Owners and Admins manage them."
        >
          {orgKey ? <OrganizationKeysSection organizations={managedByKey(me.data)} /> : <ManagedByPerson />}
        </Section>

        {!orgKey && (
          <Section title="Danger zone" id="keys-danger">
            <RevokeAllKeys />
          </Section>
        )}
      </Stack>
    </>
  );
}
