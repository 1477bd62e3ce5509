import type { Assistant, Voice } from '../../../shared/assistants.ts';
import { DESKTOP_SYSTEMS, VOICE_PROVIDERS, type VoiceProvider } from '../../../shared/assistant-rules.ts';

/** A voice's provider as the API accepts it, or null for one this dashboard does not know. */
export function providerOf(voice: Pick<Voice, 'provider'>): VoiceProvider | null {
  return VOICE_PROVIDERS.find((p) => p === voice.provider) ?? null;
}

export const DESKTOP_LABELS: Record<string, string> = { ubuntu: 'Ubuntu', windows: 'Windows', macos: 'macOS' };

/** The desktop systems as a select's options. */
export const DESKTOP_OPTIONS = DESKTOP_SYSTEMS.map((d) => ({ value: d, label: DESKTOP_LABELS[d] ?? d }));

const number = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

export const formatNumber = (n: number) => number.format(n);

export function hoursPerWeek(hours: number | null): string {
  return hours === null ? 'No limit' : `${number.format(hours)} h/week`;
}

export function parallelTasks(n: number | null): string {
  return n === null ? 'Default' : n === 1 ? '1 task' : `${number.format(n)} tasks`;
}

export function voiceName(a: Pick<Assistant, 'voice_id'>, voices: Voice[] | undefined): string | null {
  if (!a.voice_id) return null;
  return voices?.find((v) => v.voice_id === a.voice_id)?.name ?? a.voice_id;
}

export function initials(a: Pick<Assistant, 'first_name' | 'surname'>): string {
  return (
    [a.first_name, a.surname]
      .filter(Boolean)
      .map((s) => s!.trim().slice(0, 1).toUpperCase())
      .join('') || '?'
  );
}

/** Every typed word must appear somewhere in the assistant's name, about, e-mail, time zone or voice. */
export function matchesSearch(a: Assistant, search: string, voice: string | null): boolean {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay = [a.first_name, a.surname, a.about, a.email, a.timezone, a.region, voice, a.agent_id].filter(Boolean).join(' ').toLowerCase();
  return words.every((w) => hay.includes(w));
}

let languages: Intl.DisplayNames | null = null;
/** "English (en)" for a language code; anything the browser cannot name is shown as given. */
export function languageName(code: string | null): string | null {
  if (!code) return null;
  try {
    languages ??= new Intl.DisplayNames([navigator.language || 'en', 'en'], { type: 'language' });
    const label = languages.of(code);
    return label && label.toLowerCase() !== code.toLowerCase() ? `${label} (${code})` : code;
  } catch {
    return code;
  }
}

const dollars = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });

/** "$50.00 / month", or "No cap". */
export function spendingCapLabel(cap: number | null): string {
  return cap === null ? 'No cap' : `${dollars.format(cap)} / month`;
}

/**
 * Whether lowering the account's spending limit capped this assistant: a personal assistant whose cap is the
 * limit itself (what capping sets; the API refuses a cap above the limit).
 */
export const isCappedAtLimit = (a: Pick<Assistant, 'organization_id' | 'monthly_spending_cap'>, limit: number | null | undefined): boolean =>
  limit != null && a.organization_id === null && a.monthly_spending_cap === limit;
