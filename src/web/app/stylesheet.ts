/**
 * Links the app's stylesheet, which index.html only preloads (vite.config.ts: the loading screen paints
 * without waiting for it), first in the head so that Mantine's theme variables injected later override its
 * defaults. Resolves once it has loaded (at once: the preload has fetched it), or failed: the app then
 * renders unstyled rather than not at all. Under the dev server there is no preload: Vite injects the
 * styles itself.
 */
export function linkStylesheet(): Promise<void> {
  const preload = document.querySelector<HTMLLinkElement>('link[rel="preload"][as="style"]');
  if (!preload) return Promise.resolve();
  const sheet = document.createElement('link');
  sheet.rel = 'stylesheet';
  sheet.crossOrigin = preload.crossOrigin;
  sheet.href = preload.href;
  const settled = new Promise<void>((resolve) => {
    sheet.onload = () => resolve();
    sheet.onerror = () => resolve();
  });
  document.head.prepend(sheet);
  return settled;
}
