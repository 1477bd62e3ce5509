import { Select } from '@mantine/core';

/** The roles a member can be given here (Owner only by ownership transfer); ids as the API's. */
export const ASSIGNABLE_ROLES = [
  { value: '2', label: 'Admin' },
  { value: '3', label: 'Member' },
  { value: '4', label: 'Viewer' },
];

/** The role a new member or invitee gets. */
export function RoleSelect({ value, onChange }: { value: number; onChange: (roleId: number) => void }) {
  return <Select label="Role" data={ASSIGNABLE_ROLES} value={String(value)} onChange={(v) => v && onChange(Number(v))} allowDeselect={false} />;
}
