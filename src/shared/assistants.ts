import { z } from 'zod';
import { email, httpUrl, intId, name, opt, queryBool, text, Timestamp } from './common.ts';
import { countryCode } from './account.ts';
import { isTimeZone } from './time-zones.ts';
import {
  ABOUT_MAX,
  AGE_MAX,
  AGE_MIN,
  DEPLOY_ENVS,
  DESKTOP_SYSTEMS,
  MAX_PARALLEL_MAX,
  MAX_PARALLEL_MIN,
  MONTHLY_SPENDING_CAP_MAX,
  NAME_MAX,
  PRE_HIRE_CHAT_MAX_ITEMS,
  PRE_HIRE_CHAT_MSG_MAX,
  VOICE_NAME_MAX,
  VOICE_PROVIDERS,
  WEEKLY_LIMIT_MAX,
  WEEKLY_LIMIT_MIN,
} from './assistant-rules.ts';

/*
 * The assistants contract: spec operations 1–5 and the extensions of semantics.md §2.
 * Shared by the server (request validation, response checks, OpenAPI) and the dashboard (forms, uploads).
 */

// Bounds, choices and file rules: src/shared/assistant-rules.ts.
export * from './assistant-rules.ts';

// ---------------------------------------------------------------------------------------------------
// Field schemas

const timezone = () =>
  z
    .string()
    .trim()
    .min(1, 'Must not be empty.')
    .max(64, 'Must be at most 64 characters.')
    .refine(isTimeZone, 'Must be an IANA time zone name, such as Europe/Berlin, America/New_York or UTC (abbreviations such as PST are not zones).');
const age = () =>
  z
    .number({ error: 'Must be a whole number of years.' })
    .int('Must be a whole number of years.')
    .min(AGE_MIN, `Must be at least ${AGE_MIN}.`)
    .max(AGE_MAX, `Must be at most ${AGE_MAX}.`);
const weeklyLimit = () =>
  z
    .number({ error: 'Must be a number of hours per week.' })
    .min(WEEKLY_LIMIT_MIN, `Must be at least ${WEEKLY_LIMIT_MIN} hours.`)
    .max(WEEKLY_LIMIT_MAX, `Must be at most ${WEEKLY_LIMIT_MAX} hours (the hours in a week).`);
const maxParallel = () =>
  z
    .number({ error: 'Must be a whole number of parallel tasks.' })
    .int('Must be a whole number of parallel tasks.')
    .min(MAX_PARALLEL_MIN, `Must be at least ${MAX_PARALLEL_MIN}.`)
    .max(MAX_PARALLEL_MAX, `Must be at most ${MAX_PARALLEL_MAX}.`);
const phone = () =>
  z
    .string()
    .trim()
    .max(32, 'Must be at most 32 characters.')
    .regex(/^\+?[0-9][0-9 ()\-.]{2,}$/, 'Must be a phone number: digits, optionally starting with +, e.g. +1 555 0100.');
const desktop = () => z.enum(DESKTOP_SYSTEMS, { error: `Must be one of ${DESKTOP_SYSTEMS.join(', ')}.` });
const voiceProvider = () => z.enum(VOICE_PROVIDERS, { error: `Must be one of ${VOICE_PROVIDERS.join(', ')}.` });
const voiceId = () => name(200);

export const PreHireChatMessageSchema = z.object({
  role: z.enum(['user', 'assistant'], { error: 'Must be user or assistant.' }),
  msg: text(PRE_HIRE_CHAT_MSG_MAX),
});
export type PreHireChatMessage = z.infer<typeof PreHireChatMessageSchema>;

// ---------------------------------------------------------------------------------------------------
// Entities

/**
 * An assistant (the spec's info object): the spec's table plus every create/config field.
 * Every key is always present; unset values are null. `agent_id` is the integer id as a string.
 */
export const AssistantSchema = z.object({
  agent_id: z.string(),
  first_name: z.string().nullable(),
  surname: z.string().nullable(),
  age: z.number().int().nullable(),
  weekly_limit: z.number().nullable(),
  max_parallel: z.number().int().nullable(),
  about: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  nationality: z.string().nullable(),
  country: z.string().nullable(),
  phone_country: z.string().nullable(),
  profile_photo: z.string().nullable(),
  profile_video: z.string().nullable(),
  voice_id: z.string().nullable(),
  voice_provider: z.string().nullable(),
  timezone: z.string().nullable(),
  region: z.string().nullable(),
  desktop_url: z.string().nullable(),
  user_local_desktop: z.string().nullable(),
  desktop_mode: z.string().nullable(),
  user_desktop_id: z.number().int().nullable(),
  user_desktop_filesys_sync: z.boolean().nullable(),
  is_local: z.boolean().nullable(),
  /** Dollars per month; null = no limit. */
  monthly_spending_cap: z.number().nullable(),
  deploy_env: z.string().nullable(),
  user_phone: z.string().nullable(),
  user_whatsapp_number: z.string().nullable(),
  pre_hire_chat: z.array(PreHireChatMessageSchema).nullable(),
  /** Whether contact infrastructure (e-mail, phone) was provisioned for it. */
  create_infra: z.boolean(),
  /**
   * The user for a personal assistant; the creating member for an organization assistant (null once
   * that member's account is deleted — the assistant stays with the organization).
   */
  user_id: z.string().nullable(),
  organization_id: z.number().int().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Assistant = z.infer<typeof AssistantSchema>;

/** A voice: the caller's clones and the seeded presets. */
export const VoiceSchema = z.object({
  voice_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  gender: z.string().nullable(),
  language: z.string().nullable(),
  provider: z.string(),
  is_preset: z.boolean(),
  /** Absolute URL of a playable sample, or null. */
  sample_url: z.string().nullable(),
  created_at: Timestamp,
});
export type Voice = z.infer<typeof VoiceSchema>;

// ---------------------------------------------------------------------------------------------------
// 1. POST /v0/assistant — every field optional; null means "not given".

/**
 * Optional create field: null, a blank string (an empty form input) or NaN (an empty number input)
 * mean "not given".
 */
const given = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === null || (typeof v === 'string' && v.trim() === '') || (typeof v === 'number' && Number.isNaN(v)) ? undefined : v), schema.optional());

export const CreateAssistantInput = z.object({
  first_name: given(name(NAME_MAX)),
  surname: given(name(NAME_MAX)),
  age: given(age()),
  weekly_limit: given(weeklyLimit()),
  max_parallel: given(maxParallel()),
  region: given(name(NAME_MAX)),
  profile_photo: given(httpUrl()),
  profile_video: given(httpUrl()),
  desktop_url: given(httpUrl()),
  user_local_desktop: given(desktop()),
  about: given(text(ABOUT_MAX)),
  /** Default `US`. */
  country: given(countryCode()),
  /** Beyond the spec's create table (semantics §2 bounds it at create): IANA name. */
  timezone: given(timezone()),
  email: given(email()),
  voice_id: given(voiceId()),
  /** Default `elevenlabs`; with `voice_id` it must be that voice's provider. */
  voice_provider: given(voiceProvider()),
  user_phone: given(phone()),
  user_whatsapp_number: given(phone()),
  /** Default true. */
  create_infra: given(z.boolean({ error: 'Must be true or false.' })),
  /** Testing only: overrides the allocated phone number. */
  phone: given(phone()),
  pre_hire_chat: given(z.array(PreHireChatMessageSchema).max(PRE_HIRE_CHAT_MAX_ITEMS, `At most ${PRE_HIRE_CHAT_MAX_ITEMS} messages.`)),
});
/** What a client sends (form values). */
export type CreateAssistant = z.input<typeof CreateAssistantInput>;
export type CreateAssistantParsed = z.output<typeof CreateAssistantInput>;

export const AssistantInfoResponse = z.object({ info: AssistantSchema });
export const AssistantListResponse = z.object({ info: z.array(AssistantSchema) });

/**
 * GET /v0/assistant filters (logs-api.md §9); each one given narrows the list, unset ones are omitted.
 * `phone` matches exactly, `email` ignoring case, `agent_id` is the assistant's id (one that is not a
 * whole number matches nothing). `list_all_org=True` asks for the organization's whole list.
 */
export const AssistantListQuery = z.object({
  phone: opt(text(40).trim()),
  email: opt(text(254).trim()),
  agent_id: opt(text(40).trim()),
  list_all_org: queryBool(),
});
export type AssistantListFilters = z.output<typeof AssistantListQuery>;

// ---------------------------------------------------------------------------------------------------
// 2. PATCH /v0/assistant/{assistant_id}/config — omitted = unchanged, null = cleared.

const clearable = <T extends z.ZodType>(schema: T) => schema.nullable().optional();
/** Deprecated contact fields: accepted (string or null) and ignored; the response carries `Deprecation: true`. */
const deprecated = () => z.string().max(1000).nullable().optional();

export const DEPRECATED_CONFIG_FIELDS = ['user_phone', 'phone', 'phone_country', 'email', 'user_whatsapp_number'] as const;

export const UpdateAssistantConfigInput = z.object({
  first_name: clearable(name(NAME_MAX)),
  surname: clearable(name(NAME_MAX)),
  age: clearable(age()),
  nationality: clearable(name(NAME_MAX)),
  weekly_limit: clearable(weeklyLimit()),
  max_parallel: clearable(maxParallel()),
  /** Listed by the spec but ignored here: the photo is set by upload (operation 3). */
  profile_photo: z.unknown().optional(),
  profile_video: clearable(httpUrl()),
  desktop_mode: clearable(desktop()),
  user_desktop_id: clearable(intId('user_desktop_id')),
  user_desktop_filesys_sync: clearable(z.boolean({ error: 'Must be true or false.' })),
  about: clearable(text(ABOUT_MAX)),
  user_phone: deprecated(),
  phone: deprecated(),
  phone_country: deprecated(),
  email: deprecated(),
  user_whatsapp_number: deprecated(),
  /** null clears the voice (both voice_id and voice_provider). */
  voice_id: clearable(voiceId()),
  /** Set together with voice_id; defaults to the chosen voice's provider. */
  voice_provider: clearable(voiceProvider()),
  timezone: clearable(timezone()),
  /** Default true: provisions missing contact infrastructure during the update. */
  create_infra: clearable(z.boolean({ error: 'Must be true or false.' })),
  is_local: clearable(z.boolean({ error: 'Must be true or false.' })),
  /** Dollars per month, ≥ 0; null removes the limit. Personal assistants: not above the user's cap. */
  monthly_spending_cap: clearable(
    z
      .number({ error: 'Must be a number of dollars per month, or null for no limit.' })
      .min(0, 'Must be 0 or more.')
      .max(MONTHLY_SPENDING_CAP_MAX, `Must be at most ${MONTHLY_SPENDING_CAP_MAX}.`),
  ),
  deploy_env: clearable(z.enum(DEPLOY_ENVS, { error: 'Must be "preview" or null.' })),
});
export type UpdateAssistantConfig = z.input<typeof UpdateAssistantConfigInput>;
export type UpdateAssistantConfigParsed = z.output<typeof UpdateAssistantConfigInput>;

export const AssistantIdParams = z.object({ assistant_id: intId('assistant_id') });

// ---------------------------------------------------------------------------------------------------
// 3. POST /v0/assistant/photo/upload (multipart: `file`, optional `assistant_id`) → 201

export const PhotoUploadFields = z.object({ assistant_id: opt(intId('assistant_id')) });
export const UploadedFileSchema = z.object({
  /** Absolute URL under /v0/files/… */
  url: z.string(),
  content_type: z.string(),
  size: z.number().int(),
});
export type UploadedFile = z.infer<typeof UploadedFileSchema>;
export const PhotoUploadResponse = z.object({ info: UploadedFileSchema });

// ---------------------------------------------------------------------------------------------------
// 4. POST /v0/assistant/voice/clone (multipart) → 201 {info: Voice}

export const VoiceCloneFields = z.object({
  name: name(VOICE_NAME_MAX),
  language: opt(text(50)),
  description: opt(text(500)),
  gender: opt(text(50)),
  /** Default `cartesia`. */
  provider: opt(voiceProvider()),
});
export type VoiceClone = z.input<typeof VoiceCloneFields>;
export const VoiceInfoResponse = z.object({ info: VoiceSchema });
export const VoiceListResponse = z.object({ info: z.array(VoiceSchema) });

// ---------------------------------------------------------------------------------------------------
// 5. DELETE /v0/assistant/voice/{voice_id}[?provider=] → {info: "Voice deleted successfully."}

export const VoiceIdParams = z.object({ voice_id: voiceId() });
export const DeleteVoiceQuery = z.object({ provider: opt(voiceProvider()) });

/**
 * The 409 body when the voice is used by assistants: `detail` keeps the real service's sentence and
 * names them; `assistants` lists them so a client can link to each.
 */
export const VoiceInUseErrorSchema = z.object({
  detail: z.string(),
  assistants: z.array(z.object({ agent_id: z.string(), name: z.string() })),
});
export type VoiceInUseError = z.infer<typeof VoiceInUseErrorSchema>;

// ---------------------------------------------------------------------------------------------------
// Extension: GET /v0/assistant/pricing — what hiring costs, to show before submitting.

export const AssistantPricingSchema = z.object({
  /** Credits deducted per created assistant. */
  assistant_cost: z.number(),
});
export type AssistantPricing = z.infer<typeof AssistantPricingSchema>;

export const ASSISTANT_MESSAGES = {
  insufficientCredits: 'Insufficient credits to create an assistant.',
  notFound: 'Assistant not found.',
  voiceNotFound: 'Voice not found.',
  voiceInUse: 'Cannot delete voice. It is currently in use by at least one assistant.',
  photoTooLarge: 'File size exceeds 5MB limit.',
  voiceTooLarge: 'File size exceeds 25MB limit.',
  deleted: 'Assistant deleted successfully.',
  voiceDeleted: 'Voice deleted successfully.',
  listAllOrgNeedsOrganization:
    'list_all_org=True lists an organization’s assistants: call with an organization API key, or name the organization in X-Roster-Organization.',
} as const;
