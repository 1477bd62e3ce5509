import { ActionIcon, Anchor, Badge, Button, Code, CopyButton, Group, SimpleGrid, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { Section } from '../../../components/section.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useSession } from '../../../lib/session.ts';
import { displayName, useMe, workspaceName } from '../../../lib/use-me.ts';
import { ClassificationSection } from '../components/classification-section.tsx';
import { DangerZone } from '../components/danger-zone.tsx';
import { SpendingLimitSection } from '../components/spending-limit-section.tsx';

function Field({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value || '—'}</Text>
    </div>
  );
}

export function AccountPage() {
  const me = useMe();
  const { key } = useSession();

  if (me.isPending) {
    return (
      <Stack>
        <Skeleton height={36} width={240} />
        <Skeleton height={160} />
        <Skeleton height={160} />
      </Stack>
    );
  }
  if (me.isError) return <ErrorAlert error={me.error} onRetry={() => void me.refetch()} />;
  const data = me.data;
  // A session acts as the person, like their personal key.
  const personal = data.key.kind !== 'organization';

  return (
    <>
      <PageHeader
        title="Account"
        description="Your profile, classification, spending limit and API key."
        actions={
          data.is_admin && (
            <Button component={Link} to="/admin/users/new" variant="light">
              Create a user
            </Button>
          )
        }
      />
      <Stack gap="lg">
        <Section title="Profile" id="account-profile">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Field label="Name" value={displayName(data)} />
            <Field label="E-mail" value={data.email} />
            <Field label="Account type" value={data.account_type ? <Badge variant="light">{data.account_type}</Badge> : 'Not classified yet'} />
            <Field label="Workspace" value={workspaceName(data)} />
            <Field label="Key kind" value={`${data.key.kind}${data.key.role_name ? ` (${data.key.role_name})` : ''}`} />
            <Field label="Time zone" value={data.timezone} />
          </SimpleGrid>
        </Section>

        <Section title="Business classification" id="account-classification" description="Tell us whether you use Roster as an individual or for a business.">
          <ClassificationSection personalKey={personal} />
        </Section>

        <Section title="Spending limit" id="account-spending" description="A monthly cap on personal usage.">
          <SpendingLimitSection personalKey={personal} />
        </Section>

        <Section
          title="API key"
          id="account-key"
          description={
            data.key.prefix === null
              ? 'Signed in by e-mail link: this browser holds a session cookie that scripts cannot read, and no key.'
              : 'The key this session uses. Roster stores only its hash; the full key exists only in this browser tab.'
          }
        >
          <Group gap="xs">
            {data.key.prefix !== null && <Code>{data.key.prefix}…</Code>}
            {key && (
              <CopyButton value={key}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? 'Copied' : 'Copy the full key'} withArrow>
                    <ActionIcon variant="light" onClick={copy} aria-label="Copy the full API key">
                      {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            Create, name and revoke keys on the{' '}
            <Anchor component={Link} to="/account/keys" underline="always">
              API keys
            </Anchor>{' '}
            page. Lost every key? An operator can issue a new one with <code>npm run roster -- key rotate --email {data.email ?? 'you@example.com'}</code>.
          </Text>
        </Section>

        <Section title="Danger zone" id="account-danger">
          <DangerZone email={data.email} />
        </Section>
      </Stack>
    </>
  );
}
