import { describe, expect, it } from 'vitest';
import { PAGES } from '../shared/pages.ts';
import { renderFrame } from './frame.tsx';

/** Every page's address, with sample values for its parameters. */
const addresses = Object.keys(PAGES).map((path) => `/${path.replace(':project', 'demo').replace(':context', 'runs').replace(':id', '7')}`);

describe('the first screen the server renders', () => {
  it.each(addresses)('draws the page %s itself, in markup the browser keeps as it is', async (address) => {
    const html = await renderFrame(address);
    // A redirect (the old create-user address) has no first screen.
    if (html === null) return;
    const main = html.slice(html.indexOf('id="main"'), html.indexOf('</main>'));
    expect(main.length).toBeGreaterThan(0);
    // `<!--$!-->` marks a Suspense boundary whose content threw or suspended on the server (the browser then
    // draws it from scratch): a page that cannot render in Node (no navigator, window, document).
    expect(main).not.toContain('<!--$!');
    // A paragraph cannot hold a block: the browser would move the block out of it, and the page on screen would
    // not be the markup the components describe.
    expect(html).not.toMatch(/<p[ >](?:(?!<\/p>)[\s\S])*<(?:div|p|ul|ol|table|section|form)[ >]/);
  });
});
