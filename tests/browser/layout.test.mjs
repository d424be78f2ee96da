// The page's layout at a desktop window and at a phone's width: every shipped variant's board
// is seen whole without scrolling sideways (and, at 1280x900, without scrolling down), and the
// other screens never scroll sideways either.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, sharedServer, screenshot } from './harness.mjs';

const VIEWPORTS = [
  { width: 1280, height: 900, whole: true },
  { width: 390, height: 844, whole: false },
];

const { newPage } = useBrowser();
const server = sharedServer();

/** How the document and the board (if any) stand in the window, scrolled to the top. */
function measure(page) {
  return page.evaluate(() => {
    window.scrollTo(0, 0);
    const board = document.querySelector('#board svg');
    const rect = board ? board.getBoundingClientRect() : null;
    // The drawing inside the element: held to the window's height, a tall board is narrower
    // than its box.
    const box = board && board.viewBox.baseVal;
    const scale = box && Math.min(rect.width / box.width, rect.height / box.height);
    return {
      scrollWidth: document.documentElement.scrollWidth,
      width: window.innerWidth,
      height: window.innerHeight,
      board: rect && {
        left: Math.round(rect.left), right: Math.round(rect.right),
        top: Math.round(rect.top), bottom: Math.round(rect.bottom),
        width: Math.round(rect.width), height: Math.round(rect.height),
        drawn: `${Math.round(box.width * scale)}x${Math.round(box.height * scale)}`,
      },
    };
  });
}

test('every shipped variant\'s board fits the window, on a desktop and on a phone', { timeout: 240000 }, async (t) => {
  const setup = await newPage(t, { viewport: VIEWPORTS[0] });
  await setup.goto(`${server.url}/`);
  const variants = await setup.evaluate(async () => (await (await fetch('/api/variants')).json()).map((v) => v.name));
  assert.ok(variants.includes('chessball-1957') && variants.includes('apo-chessball'), `${variants}`);
  // One game a variant, seen at each size.
  const games = {};
  for (const name of variants) {
    games[name] = await setup.evaluate(async (variant) => {
      const response = await fetch('/api/games', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ variant, opponent: 'hotseat' }),
      });
      return (await response.json()).url;
    }, name);
  }
  const figures = [];
  for (const viewport of VIEWPORTS) {
    const page = await newPage(t, { viewport: viewport });
    for (const name of variants) {
      await page.goto(`${server.url}${games[name]}`);
      await page.locator('#board svg').waitFor();
      const m = await measure(page);
      const size = `${viewport.width}x${viewport.height}`;
      figures.push(`${size} ${name}: board drawn ${m.board.drawn} in a box of ${m.board.width}x${m.board.height} at ${m.board.left},${m.board.top}`);
      assert.ok(m.scrollWidth <= m.width, `${name} at ${size}: the page is ${m.scrollWidth} px wide`);
      assert.ok(m.board.left >= 0 && m.board.right <= m.width, `${name} at ${size}: ${JSON.stringify(m.board)}`);
      if (viewport.whole) {
        assert.ok(m.board.top >= 0 && m.board.bottom <= m.height,
          `${name} at ${size}: the board is not all in the window: ${JSON.stringify(m.board)}`);
      }
      if (['chessball-1957', 'apo-chessball'].includes(name)) await screenshot(page, `layout-${size}-${name}`);
    }
  }
  t.diagnostic(figures.join('\n'));
});

test('the other screens never scroll sideways, on a desktop or a phone', { timeout: 120000 }, async (t) => {
  for (const viewport of VIEWPORTS) {
    const page = await newPage(t, { viewport: viewport });
    for (const path of ['/', '/author', '/lobby', '/records', '/puzzles', '/puzzles/chessball-1957#1']) {
      await page.goto(`${server.url}${path}`);
      await page.locator('#screen > *').first().waitFor();
      if (path === '/author') await page.locator('#verdict.valid').waitFor();
      if (path.startsWith('/puzzles/')) await page.locator('#board svg').waitFor();
      if (path === '/puzzles') await page.locator('#puzzle-sets li').first().waitFor();
      const m = await measure(page);
      assert.ok(m.scrollWidth <= m.width,
        `${path} at ${viewport.width}x${viewport.height}: the page is ${m.scrollWidth} px wide`);
    }
    // The editor with a line longer than the phone is wide scrolls inside itself.
    await page.goto(`${server.url}/author`);
    await page.locator('#verdict.valid').waitFor();
    await page.fill('#editor', `${await page.inputValue('#editor')}\n# ${'a long comment '.repeat(20)}\n`);
    await page.locator('#verdict.valid').waitFor();
    const m = await measure(page);
    assert.ok(m.scrollWidth <= m.width, `/author with a long line: the page is ${m.scrollWidth} px wide`);
  }
});
