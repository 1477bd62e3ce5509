import { z } from 'zod';

/** Extension GET /v0/credits: the balance of the key's scope (the user's, or the organization's). */
export const CreditsSchema = z.object({ id: z.string(), credits: z.number() });
export type Credits = z.infer<typeof CreditsSchema>;
