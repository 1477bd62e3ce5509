import { Alert, createTheme, Notification, type CSSVariablesResolver } from '@mantine/core';

/** Shades chosen for WCAG AA contrast (4.5:1) on white and on the dark background. */
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 4 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  // People who ask their system for less motion get none from Mantine: modals, menus and notifications
  // appear and go at once instead of fading and sliding (WCAG 2.3.3).
  respectReducedMotion: true,
  components: {
    // Light alerts colour their title with the alert colour (yellow on pale yellow is 1.6:1); body text colour reads everywhere.
    Alert: Alert.extend({ styles: { title: { color: 'var(--mantine-color-text)' } } }),
    // A closed select's options are not rendered (Mantine keeps them, hidden): a kept dropdown is positioned
    // at mount, and that measurement forced the style and layout of the whole new page inside React's commit
    // (~30 ms per first screen with a select on it, plus one positioning per select: one per member row).
    // The input names its list (aria-controls) only while open, so nothing refers to the missing one.
    // A plain object, not Combobox.extend(): importing Combobox here would put it in every first screen.
    Combobox: { defaultProps: { keepMounted: false } },
    // Still skeletons. A page's loading state has ~30 of them, each pulsing on its own compositor layer: in
    // Lighthouse's mobile audit the main thread then sat in long tasks waiting on the compositor (120-160 ms
    // each, before and between the app's own work): TBT on the assistants page 1.7 -> 1.0 s, members
    // 2.0 -> 0.7 s without the pulse. The grey blocks still show where content will come.
    Skeleton: { defaultProps: { animate: false } },
    // The close button of every notification needs a name (axe button-name).
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss notification' } } }),
  },
});

// Mantine's default "dimmed" (gray.6 on white) is 3.3:1; gray.7 reads at 7:1.
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  // Error text: red.6 is 3.3:1 on white; red.9 and, on dark, red.4 pass AA.
  // Light/subtle variants (the active nav link, subtle and light buttons): hovered, their blue text sat
  // on blue.2 at 4.0:1. Text blue.9 on tints no darker than blue.1 stays above 4.5:1.
  light: {
    '--mantine-color-dimmed': t.colors.gray[7],
    '--mantine-color-error': t.colors.red[9],
    '--mantine-color-blue-light': t.colors.blue[0],
    '--mantine-color-blue-light-hover': t.colors.blue[1],
    '--mantine-color-blue-light-color': t.colors.blue[9],
  },
  // Filled buttons on dark: white on the primary shade (blue.4) was 2.5:1; on blue.8 it is 5:1. Links and
  // outlines keep blue.4, which reads on the dark background (issue 20, item 24).
  dark: {
    '--mantine-color-dimmed': t.colors.dark[1],
    '--mantine-color-error': t.colors.red[4],
    '--mantine-color-blue-filled': t.colors.blue[8],
    '--mantine-color-blue-filled-hover': t.colors.blue[9],
  },
});
