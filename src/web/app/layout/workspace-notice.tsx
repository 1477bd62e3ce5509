import { Alert } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { samePageIn } from '../../../shared/pages.ts';
import { useWorkspace, useWorkspaceState, workspaceStore } from '../../lib/workspace.ts';

/**
 * When the server stops letting the person act in the organization on screen (they were removed, or it is
 * gone), the same page of their personal workspace opens, with the reason over it; they stay signed in.
 */
export function WorkspaceNotice() {
  const { leftBecause } = useWorkspaceState();
  const { organizationId } = useWorkspace();
  const location = useLocation();
  const navigate = useNavigate();
  const leaving = leftBecause !== null && organizationId !== null;

  useEffect(() => {
    if (leaving) void navigate(samePageIn(location.pathname, null), { replace: true });
  }, [leaving, location.pathname, navigate]);

  if (leftBecause === null || organizationId !== null) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconInfoCircle aria-hidden />}
      title="You left an organization’s workspace"
      role="alert"
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={workspaceStore.dismissNotice}
      mb="md"
    >
      {leftBecause}
    </Alert>
  );
}
