/**
 * Roster's mark (public/favicon.svg's drawing), drawn inline. As `<img src="/favicon.svg">` each page paid the
 * main thread ~50 ms to decode it: an SVG image is a document of its own (frame, style, layout).
 */
export function Logo({ size }: { size: number }) {
  return (
    <svg viewBox="0 0 32 32" width={size} height={size} aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="#1864ab" />
      <path d="M10 23V9h7a4.5 4.5 0 0 1 0 9h-7m6.5 0 5 5" fill="none" stroke="#fff" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
