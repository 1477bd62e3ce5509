import type { Generated } from 'kysely';

/** Booleans are 0/1 integers, JSON is text, money is integer micro-units (see db/types.ts). */
export interface AssistantTable {
  id: Generated<number>;
  user_id: string | null;
  organization_id: number | null;
  first_name: string | null;
  surname: string | null;
  age: number | null;
  weekly_limit: number | null;
  max_parallel: number | null;
  about: string | null;
  phone: string | null;
  email: string | null;
  nationality: string | null;
  country: string | null;
  phone_country: string | null;
  profile_photo: string | null;
  profile_video: string | null;
  voice_id: string | null;
  voice_provider: string | null;
  timezone: string | null;
  region: string | null;
  desktop_url: string | null;
  user_local_desktop: string | null;
  desktop_mode: string | null;
  user_desktop_id: number | null;
  user_desktop_filesys_sync: number | null;
  is_local: number | null;
  monthly_spending_cap_micros: number | null;
  deploy_env: string | null;
  user_phone: string | null;
  user_whatsapp_number: string | null;
  /** JSON array of {role, msg}. */
  pre_hire_chat: string | null;
  create_infra: number;
  created_at: string;
  updated_at: string;
}

export interface VoiceTable {
  id: Generated<number>;
  user_id: string | null;
  organization_id: number | null;
  voice_id: string;
  provider: string;
  name: string;
  description: string | null;
  gender: string | null;
  language: string | null;
  /** Storage key of the sample, when the provider keeps one with us. */
  sample_key: string | null;
  created_at: string;
}

export interface StoredFileTable {
  key: string;
  user_id: string | null;
  organization_id: number | null;
  kind: string;
  content_type: string;
  size: number;
  created_at: string;
}

export interface AssistantsTables {
  assistants: AssistantTable;
  voices: VoiceTable;
  stored_files: StoredFileTable;
}
