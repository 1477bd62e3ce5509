import {
  IconBook,
  IconChartBar,
  IconDatabase,
  IconFlask,
  IconFolder,
  IconHeartbeat,
  IconRobot,
  IconRocket,
  IconShoppingCart,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';

/** The icons a project can pick; the stored value is the key (the server's default is "folder"). */
export const PROJECT_ICONS: { value: string; label: string; icon: Icon }[] = [
  { value: 'folder', label: 'Folder', icon: IconFolder },
  { value: 'database', label: 'Database', icon: IconDatabase },
  { value: 'chart', label: 'Chart', icon: IconChartBar },
  { value: 'flask', label: 'Experiment', icon: IconFlask },
  { value: 'robot', label: 'Robot', icon: IconRobot },
  { value: 'rocket', label: 'Rocket', icon: IconRocket },
  { value: 'book', label: 'Book', icon: IconBook },
  { value: 'users', label: 'People', icon: IconUsers },
  { value: 'cart', label: 'Shop', icon: IconShoppingCart },
  { value: 'health', label: 'Health', icon: IconHeartbeat },
];

export function ProjectIcon({ name, size = 20 }: { name: string | null | undefined; size?: number }) {
  const found = PROJECT_ICONS.find((i) => i.value === name) ?? PROJECT_ICONS[0]!;
  const Component = found.icon;
  return <Component size={size} aria-hidden />;
}
