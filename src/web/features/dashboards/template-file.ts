import { parseTemplate } from '../../../shared/tiles.ts';

/** `<name>.tile.json`, with characters that file systems dislike replaced. */
export function templateFileName(name: string): string {
  const safe =
    name
      .trim()
      // eslint-disable-next-line no-control-regex -- control characters are among those replaced, on purpose
      .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_')
      .slice(0, 120) || 'tile';
  return `${safe}.tile.json`;
}

/** What the browser makes of the pasted or dropped text before anything is sent. */
export function checkTemplateText(text: string) {
  if (!text.trim()) return { template: null, problems: [] as string[] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { template: null, problems: [`This is not valid JSON: ${(err as Error).message}`] };
  }
  // A downloaded export holds {template, metadata, export_stats}: the template is inside.
  if (raw && typeof raw === 'object' && !Array.isArray(raw) && 'template' in raw && typeof (raw as { template: unknown }).template === 'object') {
    raw = (raw as { template: unknown }).template;
  }
  const parsed = parseTemplate(raw, []);
  if (!parsed.ok) return { template: null, problems: parsed.issues.map((i) => (i.loc.length ? `${i.loc.join('.')}: ${i.msg}` : i.msg)) };
  return { template: raw as Record<string, unknown>, parsed: parsed.template, problems: [] as string[] };
}
