// A worker the dashboard's HTML starts once its first screen has painted (src/server/http/inline-scripts.ts).
// A page's first Intl formatter costs Chromium 40-60 ms on this project's test machine (ICU loads its locale
// data), in one piece, on whatever main-thread task asks first: the header's credit balance, a date in a
// list. That load is shared by the whole renderer process, so paying it here, on the worker's thread, while
// the app's JavaScript downloads, leaves the main thread's first formatter at well under a millisecond.
try {
  new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 }).format(1234.5);
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(0);
  new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }).format(-1, 'day');
  new Intl.Collator().compare('a', 'b');
} finally {
  self.close();
}
