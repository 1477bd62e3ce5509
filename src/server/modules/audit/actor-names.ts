import { personName } from '../users/person-name.ts';

/** How the audit log names who acted, as their rows read when they acted. */
export interface ActorNames {
  /** The person's name, else their e-mail, else their id. */
  actorName: string;
  /** The API key's name, else its prefix and an ellipsis; null for a browser session. */
  keyName: string | null;
}

export function actorNamesOf(
  userId: string,
  user: { first_name: string | null; last_name: string | null; email: string | null } | undefined,
  key: { name: string | null; prefix: string } | undefined,
): ActorNames {
  return {
    actorName: (user && (personName(user.first_name, user.last_name) ?? user.email)) ?? userId,
    keyName: key ? (key.name ?? `${key.prefix}…`) : null,
  };
}
