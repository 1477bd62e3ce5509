import {
  IconBuilding,
  IconFolders,
  IconHistory,
  IconHome,
  IconKey,
  IconLayoutDashboard,
  IconPlugConnected,
  IconRobot,
  IconUserCircle,
  type Icon,
} from '@tabler/icons-react';

export interface NavItem {
  label: string;
  to: string;
  icon: Icon;
  /** In an organization, shown only to roles with this permission (the personal workspace shows every item). */
  organizationPermission?: 'org:write';
}

/** The sidebar, in order. Each feature adds one line when it lands. */
export const NAV_ITEMS: NavItem[] = [
  { label: 'Overview', to: '/', icon: IconHome },
  { label: 'Assistants', to: '/assistants', icon: IconRobot },
  { label: 'Projects', to: '/projects', icon: IconFolders },
  { label: 'Dashboards', to: '/dashboards', icon: IconLayoutDashboard },
  { label: 'Organization', to: '/organization', icon: IconBuilding },
  { label: 'Activity', to: '/activity', icon: IconHistory, organizationPermission: 'org:write' },
  { label: 'Custom endpoints', to: '/custom-endpoints', icon: IconPlugConnected },
  { label: 'Account', to: '/account', icon: IconUserCircle },
  { label: 'API keys', to: '/account/keys', icon: IconKey },
];

/**
 * The items a workspace shows: in an organization, an item for some roles only once the role is known to
 * grant it (`permissions` undefined while loading); the personal workspace shows them all.
 */
export function navItemsFor(organizationId: number | null, permissions: readonly string[] | undefined): NavItem[] {
  return NAV_ITEMS.filter((item) => !item.organizationPermission || organizationId === null || permissions?.includes(item.organizationPermission));
}
