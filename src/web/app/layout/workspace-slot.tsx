import { Badge, Skeleton } from '@mantine/core';
import { useMe, workspaceName } from '../../lib/use-me.ts';

/** Which workspace the active key opens (personal or an organization, with the role held there). */
export function WorkspaceSlot() {
  const me = useMe();
  if (me.isPending) return <Skeleton height={24} width={140} />;
  if (!me.data) return null;
  const role = me.data.key.role_name;
  return (
    <Badge variant="light" size="lg" radius="sm" tt="none" aria-label={`Workspace: ${workspaceName(me.data)}${role ? `, role ${role}` : ''}`}>
      {workspaceName(me.data)}
      {role ? ` · ${role}` : ''}
    </Badge>
  );
}
