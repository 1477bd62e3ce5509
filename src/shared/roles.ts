import { z } from 'zod';

export const PERMISSIONS = [
  'project:read',
  'project:write',
  'project:delete',
  'org:read',
  'org:write',
  'org:delete',
  'assistant:read',
  'assistant:write',
  'assistant:delete',
  'billing:read',
  'billing:write',
] as const;
export const PermissionSchema = z.enum(PERMISSIONS);
export type Permission = z.infer<typeof PermissionSchema>;

export const ROLE_IDS = { Owner: 1, Admin: 2, Member: 3, Viewer: 4 } as const;
export type RoleName = keyof typeof ROLE_IDS;

/** The four system roles; ids are fixed and part of the contract. */
export const SYSTEM_ROLES: ReadonlyArray<{ id: number; name: RoleName; permissions: readonly Permission[] }> = [
  { id: 1, name: 'Owner', permissions: PERMISSIONS },
  { id: 2, name: 'Admin', permissions: PERMISSIONS.filter((p) => p !== 'org:delete') },
  {
    id: 3,
    name: 'Member',
    permissions: ['project:read', 'project:write', 'org:read', 'assistant:read', 'assistant:write', 'billing:read'],
  },
  { id: 4, name: 'Viewer', permissions: PERMISSIONS.filter((p) => p.endsWith(':read')) },
];

export function roleById(id: number) {
  return SYSTEM_ROLES.find((r) => r.id === id);
}

export function roleByName(name: string) {
  const lower = name.trim().toLowerCase();
  return SYSTEM_ROLES.find((r) => r.name.toLowerCase() === lower);
}

export const RoleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  permissions: z.array(PermissionSchema),
});
export type Role = z.infer<typeof RoleSchema>;
