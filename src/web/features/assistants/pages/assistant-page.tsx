import { Alert, Anchor, Avatar, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { ABOUT_MAX, AGE_MAX, AGE_MIN, DEPLOY_ENVS, DESKTOP_SYSTEMS, UpdateAssistantConfigInput, type Assistant } from '../../../../shared/assistants.ts';
import { countryName } from '../../../../shared/countries.ts';
import { assistantDisplayName } from '../../../../shared/assistant-name.ts';
import { confirmDelete } from '../../../components/confirm-delete.tsx';
import { leaveWithoutAsking, useUnsavedChanges } from '../../../components/leave-guard.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { TimezoneSelect } from '../../../components/timezone-select.tsx';
import { accountQueries } from '../../../data/account.ts';
import { assistantKeys, assistantMutations, assistantQueries } from '../../../data/assistants.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { applyServerErrors, useZodForm, type FormValues } from '../../../lib/form.ts';
import { NumberField, SelectField, SwitchField, textField } from '../../../lib/form-fields.tsx';
import { useApiMutation } from '../../../lib/mutation.ts';
import { missingPermission, useMe } from '../../../lib/use-me.ts';
import { changedFields } from '../config-changes.ts';
import { Section } from '../../../components/section.tsx';
import { PhotoUploader } from '../components/photo-uploader.tsx';
import { AssistantVoiceField, WorkLimitFields } from '../components/assistant-form-fields.tsx';
import { DESKTOP_LABELS, DESKTOP_OPTIONS, formatNumber, initials, providerOf } from '../format.ts';
import { useWorkspace } from '../../../lib/workspace.ts';

/** What the configuration form edits (the photo has its own uploader; contact fields are read-only). */
const ConfigSchema = UpdateAssistantConfigInput.pick({
  first_name: true,
  surname: true,
  age: true,
  nationality: true,
  about: true,
  weekly_limit: true,
  max_parallel: true,
  timezone: true,
  voice_id: true,
  voice_provider: true,
  monthly_spending_cap: true,
  profile_video: true,
  desktop_mode: true,
  user_desktop_id: true,
  user_desktop_filesys_sync: true,
  is_local: true,
  deploy_env: true,
  create_infra: true,
});
type ConfigValues = FormValues<typeof ConfigSchema>;
const FIELDS = Object.keys(ConfigSchema.shape);

/** `value` when it is one of `choices`, else null (what the form can show of a server string). */
const oneOf = <C extends string>(choices: readonly C[], value: string | null): C | null => choices.find((c) => c === value) ?? null;

function toValues(a: Assistant): ConfigValues {
  return {
    first_name: a.first_name,
    surname: a.surname,
    age: a.age,
    nationality: a.nationality,
    about: a.about,
    weekly_limit: a.weekly_limit,
    max_parallel: a.max_parallel,
    timezone: a.timezone,
    voice_id: a.voice_id,
    voice_provider: a.voice_provider === null ? null : providerOf({ provider: a.voice_provider }),
    monthly_spending_cap: a.monthly_spending_cap,
    profile_video: a.profile_video,
    desktop_mode: oneOf(DESKTOP_SYSTEMS, a.desktop_mode),
    user_desktop_id: a.user_desktop_id,
    user_desktop_filesys_sync: a.user_desktop_filesys_sync,
    is_local: a.is_local,
    deploy_env: oneOf(DEPLOY_ENVS, a.deploy_env),
    create_infra: a.create_infra,
  };
}

const money = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function ReadOnly({ rows }: { rows: [string, string | null][] }) {
  return (
    <Table variant="vertical" layout="fixed" withTableBorder={false}>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={200}>{label}</Table.Th>
            <Table.Td style={{ wordBreak: 'break-all' }}>{value ?? <Text c="dimmed">Not set</Text>}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function ConfigForm({ assistant, canWrite }: { assistant: Assistant; canWrite: boolean }) {
  const id = Number(assistant.agent_id);
  const client = useQueryClient();
  const update = useApiMutation(assistantMutations.update, {
    onSuccess: (saved) => {
      client.setQueryData(assistantKeys.detail(id), saved);
      notifications.show({ color: 'teal', message: `${assistantDisplayName(saved)}: changes saved.` });
    },
  });
  const personal = assistant.organization_id === null;
  const userLimit = useQuery({ ...accountQueries.spendingLimit(), enabled: personal });
  const form = useZodForm(ConfigSchema, { defaultValues: toValues(assistant) });
  const { control } = form;
  const { errors, isSubmitting, dirtyFields, isDirty } = form.formState;
  useUnsavedChanges(isDirty);
  const text = (field: keyof ConfigValues) => textField(form, field);

  const submit = form.handleSubmit(async (values) => {
    const changes = changedFields(values, dirtyFields);
    if (Object.keys(changes).length === 0) return;
    try {
      const saved = await update.mutateAsync({ id, changes });
      form.reset(toValues(saved));
    } catch (error) {
      applyServerErrors(error, form.setError, FIELDS);
    }
  });

  const cap = userLimit.data?.monthly_spending_cap;
  const capHint = !personal
    ? 'Dollars per month for this organization assistant; empty for no limit.'
    : userLimit.isPending
      ? 'Loading your account limit…'
      : cap === null || cap === undefined
        ? 'Dollars per month; empty for no limit. Your account has no spending limit.'
        : `Dollars per month; empty for no limit. It cannot exceed your account limit of ${money.format(cap)} per month.`;

  return (
    <form onSubmit={submit} noValidate aria-label={`Configuration of ${assistantDisplayName(assistant)}`}>
      <fieldset disabled={!canWrite} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="lg">
          <Section id="profile" title="Profile">
            <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
              <TextInput label="First name" {...text('first_name')} />
              <TextInput label="Surname" {...text('surname')} />
              <NumberField control={control} name="age" label="Age" min={AGE_MIN} max={AGE_MAX} allowDecimal={false} />
              <TextInput label="Nationality" {...text('nationality')} />
            </SimpleGrid>
            <Textarea label="About" description={`At most ${ABOUT_MAX} characters.`} autosize minRows={2} maxRows={8} {...text('about')} />
          </Section>

          <Section id="work" title="Work">
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <WorkLimitFields control={control} />
              <SelectField as={TimezoneSelect} control={control} name="timezone" label="Time zone" description="IANA name; its working hours follow it." clearable />
            </SimpleGrid>
          </Section>

          <Section id="voice" title="Voice">
            <AssistantVoiceField form={form} canClone={canWrite} />
          </Section>

          <Section id="spending" title="Spending">
            <NumberField
              control={control}
              name="monthly_spending_cap"
              label="Monthly spending cap (USD)"
              description={capHint}
              min={0}
              max={personal && typeof cap === 'number' ? cap : undefined}
              decimalScale={2}
              thousandSeparator=","
              prefix="$"
              maw={360}
            />
          </Section>

          <Section id="runtime" title="Desktop and runtime">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <SelectField
                control={control}
                name="desktop_mode"
                label="Desktop mode"
                description="Operating system of its virtual desktop."
                placeholder="Not set"
                clearable
                clearButtonProps={{ 'aria-label': 'Clear desktop mode' }}
                data={DESKTOP_OPTIONS}
              />
              <NumberField
                control={control}
                name="user_desktop_id"
                label="Your desktop id"
                description="A registered desktop of yours to assign; empty for none."
                min={1}
                allowDecimal={false}
              />
              {/* Native routing is the absence of a deployment (null); the select always shows one. */}
              <SelectField
                control={control}
                name="deploy_env"
                label="Deployment"
                data={[
                  { value: 'native', label: 'Native routing' },
                  { value: 'preview', label: 'Preview runtime stack' },
                ]}
                allowDeselect={false}
                fromValue={(v) => (v === 'preview' ? 'preview' : 'native')}
                toValue={(choice) => (choice === 'preview' ? 'preview' : null)}
              />
              <TextInput label="Profile video URL" type="url" placeholder="https://…" {...text('profile_video')} />
            </SimpleGrid>
            <Stack gap="sm">
              <SwitchField
                control={control}
                name="user_desktop_filesys_sync"
                label="Sync files with your desktop"
                description="Keep its file system in sync with the assigned desktop."
              />
              <SwitchField control={control} name="is_local" label="Run locally" description="Its runtime runs on your machine instead of the cluster." />
              <SwitchField
                control={control}
                name="create_infra"
                label="Provision missing infrastructure when saving"
                description="Allocates an e-mail address and phone number if it has none."
              />
            </Stack>
          </Section>

          <Paper withBorder radius="md" p="md" pos="sticky" bottom={0} style={{ zIndex: 2 }} component="div">
            <Stack gap="xs">
              {errors.root?.server && (
                <Alert color="red" role="alert" title="Not saved">
                  {errors.root.server.message}
                </Alert>
              )}
              <Group justify="space-between">
                <Text size="sm" role="status">
                  {isDirty ? 'You have unsaved changes.' : 'No unsaved changes.'}
                </Text>
                <Group gap="sm">
                  <Button variant="default" onClick={() => form.reset()} disabled={!isDirty || isSubmitting}>
                    Discard changes
                  </Button>
                  <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
                    Save changes
                  </Button>
                </Group>
              </Group>
            </Stack>
          </Paper>
        </Stack>
      </fieldset>
    </form>
  );
}

export function AssistantPage() {
  const workspace = useWorkspace();
  const params = useParams();
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id > 0;
  const remove = useApiMutation(assistantMutations.delete, {
    onSuccess: (_r, deleted) => notifications.show({ color: 'teal', message: `${assistantDisplayName(deleted)} was deleted.` }),
  });
  // While it is being deleted and once it is, the assistant is not asked for again while this page is still
  // on screen (its cached entry is dropped on success, which would otherwise fetch it anew: a 404).
  const assistant = useQuery({ ...assistantQueries.detail(id), enabled: valid && remove.isIdle });
  const me = useMe();
  const navigate = useNavigate();
  const location = useLocation();
  const canWrite = !missingPermission(me.data, 'assistant:write');
  const justHired = (location.state as { hired?: boolean } | null)?.hired === true;
  const cannotDelete = missingPermission(me.data, 'assistant:delete');

  // A link to a section (#voice from the voices page) scrolls there once the page is drawn.
  useEffect(() => {
    if (!assistant.data || !location.hash) return;
    document.getElementById(location.hash.slice(1))?.scrollIntoView({ block: 'start' });
  }, [assistant.data, location.hash]);

  if (!valid || (assistant.isError && assistant.error instanceof ApiError && assistant.error.status === 404)) {
    return (
      <>
        <PageHeader title="Assistant not found" />
        <Alert color="yellow" title="No such assistant here">
          It may have been deleted, or it belongs to another workspace.{' '}
          <Anchor component={Link} to={workspace.path('/assistants')} underline="always" c="var(--mantine-color-text)" fw={600}>
            See your assistants
          </Anchor>
        </Alert>
      </>
    );
  }
  if (assistant.isPending) {
    return (
      <Stack>
        <Group>
          <Skeleton height={64} circle />
          <Skeleton height={32} width={260} />
        </Group>
        <Skeleton height={180} />
        <Skeleton height={120} />
      </Stack>
    );
  }
  if (assistant.isError) return <ErrorAlert error={assistant.error} onRetry={() => void assistant.refetch()} />;

  const a = assistant.data;
  const name = assistantDisplayName(a);
  const askDelete = () =>
    confirmDelete({
      title: `Delete ${name}?`,
      message: 'The assistant and its configuration are removed. Credits spent on hiring are not refunded.',
      confirmLabel: 'Delete assistant',
      onConfirm: () =>
        remove.mutate(a, {
          onSuccess: () => {
            // Unsaved edits of a deleted assistant are nothing to ask about.
            leaveWithoutAsking();
            void navigate(workspace.path('/assistants'));
          },
        }),
    });

  return (
    <>
      <PageHeader
        title={
          <Group gap="md" component="span">
            <Avatar src={a.profile_photo} alt="" size={56} radius="xl" color="blue" name={name}>
              {initials(a)}
            </Avatar>
            <span>{name}</span>
          </Group>
        }
        description={`Hired ${dateTime.format(new Date(a.created_at))} · updated ${dateTime.format(new Date(a.updated_at))}`}
        // Just hired (hire-assistant-page.tsx): start at the name, where the success was announced.
        focus={justHired}
        actions={
          <Button component={Link} to={workspace.path('/assistants')} variant="default">
            All assistants
          </Button>
        }
      />
      <Stack gap="lg">
        {remove.isError && <ErrorAlert error={remove.error} title="Not deleted" />}
        <Section id="photo" title="Photo" description="A new photo replaces the current one as soon as it is uploaded.">
          {canWrite ? (
            <PhotoUploader assistantId={Number(a.agent_id)} currentUrl={a.profile_photo} name={name} />
          ) : (
            <Text size="sm">Your role cannot change the photo.</Text>
          )}
        </Section>

        <Section id="contact" title="Contact and location" description="Set when hiring; shown here for reference.">
          <ReadOnly
            rows={[
              ['Assistant e-mail', a.email],
              ['Assistant phone', a.phone],
              ['Country', a.country ? `${countryName(a.country)} (${a.country})` : null],
              ['Region', a.region],
              ['Your phone', a.user_phone],
              ['Your WhatsApp number', a.user_whatsapp_number],
              ['Your desktop system', a.user_local_desktop ? (DESKTOP_LABELS[a.user_local_desktop] ?? a.user_local_desktop) : null],
              ['Desktop URL', a.desktop_url],
              ['Pre-hire chat', a.pre_hire_chat?.length ? `${formatNumber(a.pre_hire_chat.length)} messages` : null],
            ]}
          />
        </Section>

        {!canWrite && <Alert color="gray">Your role can view this assistant but not change it.</Alert>}
        <ConfigForm key={a.agent_id} assistant={a} canWrite={canWrite} />

        <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="danger-title" style={{ borderColor: 'var(--mantine-color-red-filled)' }}>
          <Group justify="space-between">
            <div>
              <Title order={2} size="h4" id="danger-title">
                Delete this assistant
              </Title>
              <Text size="sm" c="dimmed">
                {cannotDelete ?? 'It stops working and its configuration is removed. This cannot be undone.'}
              </Text>
            </div>
            <Button
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={askDelete}
              disabled={!!cannotDelete}
              loading={remove.isPending}
            >
              Delete assistant
            </Button>
          </Group>
        </Paper>
      </Stack>
    </>
  );
}
