import type { Assistant } from './assistants.ts';

// Apart from the assistant schemas so that a page which only lists assistants does not load and build zod.

/** A display name for an assistant: "First Surname", or "Assistant #id". */
export function assistantDisplayName(a: Pick<Assistant, 'agent_id' | 'first_name' | 'surname'>): string {
  const full = [a.first_name, a.surname].filter(Boolean).join(' ').trim();
  return full || `Assistant #${a.agent_id}`;
}
