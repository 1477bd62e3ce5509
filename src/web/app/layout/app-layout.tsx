import { AppShell, Burger, Group, NavLink, Skeleton, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { NavLink as RouterNavLink, Outlet, useLocation, useNavigationType } from 'react-router';
import { IconShieldCog } from '@tabler/icons-react';
import { LeaveGuard } from '../../components/leave-guard.tsx';
import { useWorkspace } from '../../lib/workspace.ts';
import { meQuery } from '../../data/account.ts';
import { queryClient } from '../../lib/query-client.ts';
import { NAV_ITEMS, navItemsFor } from '../nav.ts';
import { ColorSchemeToggle } from './color-scheme-toggle.tsx';
import classes from './app-layout.module.css';
import { useFocusPageHeading } from './use-focus-page-heading.ts';
import { WorkspaceNotice } from './workspace-notice.tsx';
import { Logo } from '../../components/logo.tsx';

// The header's two menus (Mantine's Menu, focus trap and floating positioning) arrive just after the
// shell's first paint, in their own chunks: the first screen stays well inside its JavaScript budget.
// Until then the same skeletons show as while the account is loading.
const UserMenu = lazy(async () => ({ default: (await import('./user-menu.tsx')).UserMenu }));
const CreditBalance = lazy(async () => ({ default: (await import('./credit-balance.tsx')).CreditBalance }));
const WorkspaceSwitcher = lazy(async () => ({ default: (await import('../../features/organizations/components/workspace-switcher.tsx')).WorkspaceSwitcher }));

/**
 * The cached "who am I" (the route loader asks for it), read without a query hook: the shell's first screen
 * stays without react-query's hooks. Gives the workspace's permissions and whether the person administers
 * the instance.
 */
function useCachedMe() {
  return useSyncExternalStore(
    (onChange) => queryClient.getQueryCache().subscribe(onChange),
    () => queryClient.getQueryData(meQuery.queryKey),
    () => undefined,
  );
}

export function AppLayout() {
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();
  const workspace = useWorkspace();
  const me = useCachedMe();
  const items = navItemsFor(workspace.organizationId, me?.key.permissions);
  const isAdmin = me?.is_admin === true;

  useEffect(close, [location.pathname, close]);
  // A new page starts at its top (the browser keeps the old page's scroll otherwise: after hiring, the new
  // assistant opened at its bottom). Back and Forward keep the browser's own restoring, and a #section
  // link its own scrolling.
  const navigationType = useNavigationType();
  useEffect(() => {
    if (navigationType !== 'POP' && !location.hash) window.scrollTo(0, 0);
  }, [location.pathname, location.hash, navigationType]);
  useFocusPageHeading(location.pathname);

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 232, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="lg">
      <a href="#main" className={classes.skipLink}>
        Skip to content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          {/* The left side gives way on a phone (the switcher's name is cut), so the account menu stays in the window. */}
          <Group gap="sm" wrap="nowrap" miw={0} style={{ flex: '0 1 auto' }}>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={opened ? 'Close navigation' : 'Open navigation'} />
            <UnstyledButton component={RouterNavLink} to={workspace.path('/')} className={classes.brand} aria-label="Roster home">
              <Logo size={28} />
              <Text fw={700} size="lg" visibleFrom="xs">
                Roster
              </Text>
            </UnstyledButton>
            <Suspense fallback={<Skeleton height={30} width={160} />}>
              <WorkspaceSwitcher />
            </Suspense>
          </Group>
          <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
            <Suspense fallback={<Skeleton height={24} width={80} />}>
              <CreditBalance />
            </Suspense>
            <ColorSchemeToggle />
            <Suspense fallback={<Skeleton height={34} width={34} circle />}>
              <UserMenu />
            </Suspense>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main navigation">
        {/* A native scroll box: Mantine's ScrollArea measured its content on a timer after mount (a forced
            layout in the first screen's task) and was a chunk of its own. The links in it take the focus,
            so the keyboard scrolls it too. */}
        <div className={classes.navScroll}>
          {items.map((item) => (
            <NavLink
              key={item.to}
              component={RouterNavLink}
              to={workspace.path(item.to)}
              // Exact for `/` and for an item another lies under (Account above API keys): one entry lit at a time.
              end={item.to === '/' || NAV_ITEMS.some((other) => other.to.startsWith(`${item.to}/`))}
              label={item.label}
              leftSection={<item.icon size={18} stroke={1.7} aria-hidden />}
            />
          ))}
          {/* Instance administration is not in a workspace: the same address from every one. */}
          {isAdmin && <NavLink component={RouterNavLink} to="/admin" label="Admin" leftSection={<IconShieldCog size={18} stroke={1.7} aria-hidden />} />}
        </div>
      </AppShell.Navbar>
      <LeaveGuard />
      <AppShell.Main id="main" tabIndex={-1}>
        <WorkspaceNotice />
        <Suspense fallback={<Skeleton height={240} radius="md" />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
