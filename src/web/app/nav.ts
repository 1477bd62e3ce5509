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
