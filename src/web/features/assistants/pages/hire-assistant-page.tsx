import { Accordion, Alert, Anchor, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconCoins } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import { useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { ABOUT_MAX, AGE_MAX, AGE_MIN, CreateAssistantInput, DEFAULT_COUNTRY, FICTIONAL_PHONE_COUNTRIES } from '../../../../shared/assistants.ts';
import { countryName } from '../../../../shared/countries.ts';
import { assistantDisplayName } from '../../../../shared/assistant-name.ts';
import { CountrySelect } from '../../../components/country-select.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { browserTimeZone, TimezoneSelect } from '../../../components/timezone-select.tsx';
import { assistantKeys, assistantMutations, assistantQueries } from '../../../data/assistants.ts';
import { creditKeys, creditQueries } from '../../../data/credits.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { applyServerErrors, useZodForm, type FormValues } from '../../../lib/form.ts';
import { NumberField, SelectField, SwitchField, textField } from '../../../lib/form-fields.tsx';
import { useApiMutation } from '../../../lib/mutation.ts';
import { missingPermission, useMe } from '../../../lib/use-me.ts';
import { Section } from '../../../components/section.tsx';
import { PhotoUploader, type PhotoUploaderHandle } from '../components/photo-uploader.tsx';
import { leaveWithoutAsking, useUnsavedChanges } from '../../../components/leave-guard.tsx';
import { PreHireChatEditor } from '../components/pre-hire-chat-editor.tsx';
import { AssistantVoiceField, WorkLimitFields } from '../components/assistant-form-fields.tsx';
import { DESKTOP_OPTIONS, formatNumber } from '../format.ts';
import { ErrorText } from '../../../components/error-text.tsx';
import { useWorkspace } from '../../../lib/workspace.ts';

type Fields = FormValues<typeof CreateAssistantInput>;
/** The inputs hold null for "not given" (the schema drops it), except the chat list and the switch. */
type HireValues = { [K in keyof Fields]: K extends 'pre_hire_chat' | 'create_infra' ? Fields[K] : Fields[K] | null };
const FIELDS = Object.keys(CreateAssistantInput.shape);
const PHONE_PROMISE = `Its phone number is from this country in ${FICTIONAL_PHONE_COUNTRIES.map((c) => countryName(c)).join(', ')}; elsewhere it gets a US number.`;

/**
 * The one message for a workspace short of credits, in the person's words: where credits come from (an
 * instance administrator grants them; an organization's owner can move their own to it), with a link to
 * the place where that is done when the person can do it.
 */
function NotEnoughCredits({ cost, balance }: { cost: number; balance: number }) {
  const me = useMe();
  const workspace = useWorkspace();
  const key = me.data?.key;
  const inOrganization = key?.organization_id != null;
  const missing = formatNumber(cost - balance);
  const isAdmin = me.data?.is_admin === true;
  return (
    <Alert color="yellow" icon={<IconAlertTriangle aria-hidden />} title="Not enough credits" role="alert">
      <Stack gap={6}>
        <Text size="sm">
          Hiring costs {formatNumber(cost)} credits, and {inOrganization ? `${key?.organization_name ?? 'this organization'} has` : 'you have'} {formatNumber(balance)}:
          at least {missing} more are needed.
        </Text>
        {isAdmin ? (
          <Text size="sm">
            You administer this Roster instance:{' '}
            <Anchor underline="always" component={Link} to={inOrganization ? '/admin?tab=organizations' : '/admin'}>
              grant credits in the Admin area
            </Anchor>
            , then hire.
          </Text>
        ) : inOrganization && key?.role_name === 'Owner' ? (
          <Text size="sm">
            As its owner, you can{' '}
            <Anchor underline="always" component={Link} to={workspace.path('/organization?tab=settings')}>
              move credits from your personal balance to this organization
            </Anchor>
            , or ask an administrator of this Roster instance to grant it some.
          </Text>
        ) : inOrganization ? (
          <Text size="sm">Ask the organization’s owner to move credits to it, or an administrator of this Roster instance to grant it some.</Text>
        ) : (
          <Text size="sm">Credits are granted by the administrators of this Roster instance: ask one of them for more, then hire.</Text>
        )}
      </Stack>
    </Alert>
  );
}

/** What hiring costs against what the workspace holds, before anything is sent. */
function CostSummary({ short, cost, balance, loading, organization }: { short: boolean; cost?: number; balance?: number; loading: boolean; organization: boolean }) {
  if (loading) return <Skeleton height={60} />;
  if (cost === undefined || balance === undefined) {
    return <Text size="sm">The cost could not be loaded; the server checks your balance when you hire.</Text>;
  }
  return (
    <Stack gap="xs" id="hire-cost">
      <Group gap="xl">
        <div>
          <Text size="sm" c="dimmed">
            Cost
          </Text>
          <Text fw={600}>{formatNumber(cost)} credits</Text>
        </div>
        <div>
          <Text size="sm" c="dimmed">
            {organization ? 'Organization balance' : 'Your balance'}
          </Text>
          <Text fw={600}>{formatNumber(balance)} credits</Text>
        </div>
        {!short && (
          <div>
            <Text size="sm" c="dimmed">
              After hiring
            </Text>
            <Text fw={600}>{formatNumber(balance - cost)} credits</Text>
          </div>
        )}
      </Group>
      {short && <NotEnoughCredits cost={cost} balance={balance} />}
    </Stack>
  );
}

export function HireAssistantPage() {
  const workspace = useWorkspace();
  const navigate = useNavigate();
  const client = useQueryClient();
  const me = useMe();
  const pricing = useQuery(assistantQueries.pricing());
  const credits = useQuery(creditQueries.balance());
  const create = useApiMutation(assistantMutations.create, {
    onSuccess: (assistant) => {
      client.setQueryData(assistantKeys.detail(Number(assistant.agent_id)), assistant);
      // A status, not an alert: good news is announced without interrupting.
      notifications.show({ color: 'teal', message: `${assistantDisplayName(assistant)} was hired.`, role: 'status' });
    },
  });
  const cannotHire = missingPermission(me.data, 'assistant:write');
  const form = useZodForm<typeof CreateAssistantInput, HireValues>(CreateAssistantInput, {
    defaultValues: {
      first_name: null,
      surname: null,
      age: null,
      about: null,
      weekly_limit: null,
      max_parallel: null,
      country: DEFAULT_COUNTRY,
      timezone: browserTimeZone(),
      email: null,
      user_phone: null,
      user_whatsapp_number: null,
      profile_photo: null,
      voice_id: null,
      voice_provider: null,
      region: null,
      user_local_desktop: null,
      desktop_url: null,
      profile_video: null,
      pre_hire_chat: [],
      create_infra: true,
    },
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  // The photo in the cropper counts too (PhotoUploader says so itself).
  useUnsavedChanges(isDirty);
  const photoUploader = useRef<PhotoUploaderHandle>(null);
  const cost = pricing.data?.assistant_cost;
  const balance = credits.data?.credits;
  const short = cost !== undefined && balance !== undefined && balance < cost;
  // Known from the balance, or said by the server (402) when the balance changed meanwhile: one message either way.
  const outOfCredits = short || errors.root?.server?.type === 'credits';
  const name = [form.watch('first_name'), form.watch('surname')].filter(Boolean).join(' ');

  // eslint-disable-next-line react-hooks/refs -- handleSubmit runs this on submit, never while rendering
  const submit = form.handleSubmit(async (values) => {
    // A photo chosen but not yet uploaded goes up now, cropped as the cropper shows it.
    const pending = (await photoUploader.current?.uploadPending()) ?? { kind: 'none' };
    if (pending.kind === 'failed') {
      form.setError('root.server', {
        type: 'photo',
        message: `The photo was not uploaded (${pending.message}), so nothing was hired. Choose the photo again, another one, or none, and hire again.`,
      });
      return;
    }
    const profile_photo = pending.kind === 'uploaded' ? pending.photo.url : values.profile_photo;
    try {
      const assistant = await create.mutateAsync({ ...values, profile_photo, pre_hire_chat: values.pre_hire_chat?.length ? values.pre_hire_chat : undefined });
      leaveWithoutAsking();
      // The new page opens at its top with its heading focused (assistant-page.tsx reads `hired`).
      void navigate(workspace.path(`/assistants/${assistant.agent_id}`), { state: { hired: true } });
    } catch (error) {
      if (error instanceof ApiError && error.status === 402) {
        // The balance changed since it was read: read it again; the cost summary then says what to do.
        form.setError('root.server', { type: 'credits', message: error.detail });
        void client.invalidateQueries({ queryKey: creditKeys.balance() });
        return;
      }
      applyServerErrors(error, form.setError, FIELDS);
    }
  });

  const text = (field: keyof HireValues) => textField(form, field);
  const msg = (field: keyof HireValues) => errors[field]?.message;
  const { control } = form;

  return (
    <>
      <PageHeader
        title="Hire an assistant"
        description="Every field is optional and can be changed later, except the e-mail and phone numbers, which are set here."
        actions={
          <Button component={Link} to={workspace.path('/assistants')} variant="default">
            Back to assistants
          </Button>
        }
      />
      <form onSubmit={submit} noValidate aria-label="Hire an assistant">
        <Stack gap="lg">
          <Section id="profile" title="Profile" description="Who the assistant is.">
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput label="First name" autoComplete="off" {...text('first_name')} />
              <TextInput label="Surname" autoComplete="off" {...text('surname')} />
              <NumberField control={control} name="age" label="Age" min={AGE_MIN} max={AGE_MAX} allowDecimal={false} />
            </SimpleGrid>
            <Textarea label="About" description={`A short description, at most ${ABOUT_MAX} characters.`} autosize minRows={2} maxRows={6} {...text('about')} />
          </Section>

          <Section id="work" title="Work" description="How much it works.">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <WorkLimitFields control={control} />
            </SimpleGrid>
          </Section>

          <Section id="location" title="Location and contact" description="Where it works and how it reaches you.">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <SelectField as={CountrySelect} control={control} name="country" label="Country" description={PHONE_PROMISE} clearable />
              <SelectField as={TimezoneSelect} control={control} name="timezone" label="Time zone" description="Its working hours follow this zone." clearable />
              <TextInput label="Assistant e-mail" type="email" autoComplete="off" description="Leave empty to have one allocated." {...text('email')} />
              <TextInput label="Your phone" type="tel" autoComplete="tel" description="Where the assistant calls or texts you." {...text('user_phone')} />
              <TextInput label="Your WhatsApp number" type="tel" description="Optional, e.g. +1 555 0100." {...text('user_whatsapp_number')} />
            </SimpleGrid>
          </Section>

          <Section id="photo" title="Photo" description="Shown as its avatar.">
            <PhotoUploader
              ref={photoUploader}
              name={name}
              pendingNote="Not uploaded yet: hiring uploads it as cropped here."
              currentUrl={form.watch('profile_photo')}
              onUploaded={(photo) => form.setValue('profile_photo', photo.url, { shouldDirty: true })}
              onRemove={() => form.setValue('profile_photo', null, { shouldDirty: true })}
            />
            <ErrorText>{msg('profile_photo')}</ErrorText>
          </Section>

          <Section id="voice" title="Voice" description="How it sounds on calls.">
            <AssistantVoiceField form={form} canClone={!cannotHire} />
          </Section>

          <Paper withBorder radius="md">
            <Accordion variant="default" chevronPosition="left">
              <Accordion.Item value="advanced">
                <Accordion.Control>Advanced settings</Accordion.Control>
                <Accordion.Panel>
                  <Stack gap="md">
                    <SimpleGrid cols={{ base: 1, sm: 2 }}>
                      <TextInput label="Region" description="Geographic region, e.g. eu-west." {...text('region')} />
                      <SelectField
                        control={control}
                        name="user_local_desktop"
                        label="Your desktop system"
                        placeholder="Not set"
                        clearable
                        clearButtonProps={{ 'aria-label': 'Clear desktop system' }}
                        data={DESKTOP_OPTIONS}
                      />
                      <TextInput label="Desktop URL" type="url" placeholder="https://…" description="The assistant's desktop page." {...text('desktop_url')} />
                      <TextInput label="Profile video URL" type="url" placeholder="https://…" {...text('profile_video')} />
                    </SimpleGrid>
                    <div>
                      <Text fw={500} size="sm" mb={4}>
                        Pre-hire chat
                      </Text>
                      <PreHireChatEditor control={control} errors={errors} />
                    </div>
                    <SwitchField
                      control={control}
                      name="create_infra"
                      label="Create its infrastructure"
                      description="Allocate an e-mail address and a phone number now. Turn off only for testing."
                    />
                  </Stack>
                </Accordion.Panel>
              </Accordion.Item>
            </Accordion>
          </Paper>

          <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="hire-summary-title">
            <Stack gap="md">
              <Group gap="xs">
                <IconCoins size={20} aria-hidden />
                <Text fw={650} id="hire-summary-title">
                  Cost
                </Text>
              </Group>
              <CostSummary
                short={outOfCredits}
                cost={cost}
                balance={balance}
                loading={pricing.isPending || credits.isPending}
                organization={me.data?.key.organization_id != null}
              />
              {errors.root?.server && errors.root.server.type !== 'credits' && (
                <Alert color="red" role="alert" title={errors.root.server.type === 'photo' ? 'Photo not uploaded' : 'Could not hire'}>
                  {errors.root.server.message}
                </Alert>
              )}
              {Object.keys(errors).some((k) => k !== 'root') && (
                <Text size="sm" c="red" role="status">
                  Some fields need attention; they are marked above.
                </Text>
              )}
              <Group>
                <Button type="submit" loading={isSubmitting} disabled={short || !!cannotHire} aria-describedby={short ? 'hire-cost' : undefined}>
                  {cost !== undefined ? `Hire for ${formatNumber(cost)} credits` : 'Hire assistant'}
                </Button>
                {cannotHire && <Text size="sm">{cannotHire}</Text>}
              </Group>
            </Stack>
          </Paper>
        </Stack>
      </form>
    </>
  );
}
