// A page per variant in a real browser: every shipped variant's page shows its diagrams, what
// the solver says and its rules, and starts a game against the engine; the game's page shows
// the rules and the zones; the lobby and the editor link to the page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, sharedServer, screenshot } from './harness.mjs';

const { newPage: pageOfSize } = useBrowser();
const server = sharedServer();

/** A page in a browser session of its own, 1280x900 (its pages wait up to 30 s: the solver's
 *  facts of the wider variants take that long on a loaded machine). */
async function newPage(t) {
  const page = await pageOfSize(t, { viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(30000);
  return page;
}

test('every shipped variant has a page that starts a game against the engine', { timeout: 300000 }, async (t) => {
  const page = await newPage(t);
  await page.goto(`${server.url}/`);
  const variants = await page.evaluate(async () => (await fetch('/api/variants')).json());
  assert.ok(variants.length >= 9);
  for (const v of variants) {
    await page.goto(`${server.url}/variants/${v.name}`);
    await page.locator('#variant-title').waitFor();
    assert.equal(await page.textContent('#variant-title'), v.title);
    const data = await page.evaluate(async (name) => (await fetch(`/api/variants/${name}/page`)).json(), v.name);
    assert.equal(await page.locator('#start-diagram svg').count(), 1, v.name);
    assert.equal(await page.locator('#field-diagram svg').count(), 1, v.name);
    assert.equal(await page.locator('#pieces figure').count(), data.pieces.length, v.name);
    assert.equal(await page.locator('#pieces figure svg').count(), data.pieces.length, v.name);
    assert.ok(data.pieces.length > 0, v.name);
    for (const p of data.pieces) {
      const marks = await page.locator(`#piece-${p.letter} svg .reach-move`).count();
      assert.equal(marks, p.moves.length, `${v.name}: ${p.name}`);
    }
    // The rules in words, as `kickoff explain` gives them, shown as text.
    assert.equal(await page.textContent('#rules-text'), data.explain, v.name);
    assert.equal(await page.textContent('#variant-description'), v.description, v.name);
    assert.ok((await page.textContent('#facts')).length > 0, v.name);
    assert.equal(await page.getAttribute('#seek-lobby', 'href'), `/lobby?variant=${v.name}`);
    assert.equal(await page.getAttribute('#open-editor', 'href'), `/author?variant=${v.name}`);
    // Play the engine: a game of this variant, its board shown.
    await page.click('#play-engine');
    await page.waitForURL(/\/play\//);
    await page.locator('#board svg').waitFor();
    assert.equal(await page.textContent('#title'), v.title);
  }
});

test('the facts are computed, then shown', { timeout: 120000 }, async (t) => {
  const page = await newPage(t);
  await page.goto(`${server.url}/variants/boyer-1951`);
  await page.locator('#facts[data-status="settled"]').waitFor({ timeout: 60000 });
  assert.match(await page.textContent('#facts'), /Neither side forces a goal from the start within two/);
  // A key no variant has.
  await page.goto(`${server.url}/variants/no-such-variant`);
  await page.locator('#variant-error').waitFor();
  assert.match(await page.textContent('#variant-error'), /no variant is named `no-such-variant`/);
});

test('a game shows its rules and its zones, and links to the variant\'s page', { timeout: 120000 }, async (t) => {
  const page = await newPage(t);
  await page.goto(`${server.url}/variants/chessball-1957`);
  await page.locator('#facts[data-status="settled"]').waitFor({ timeout: 60000 });
  // The goalkeepers' back ranks, shaded on the page's diagrams.
  assert.equal(await page.locator('#field-diagram svg .zone').count(), 10);
  await screenshot(page, 'variant-page', { fullPage: true });
  await page.click('#play-engine');
  await page.waitForURL(/\/play\//);
  await page.locator('#board svg').waitFor();
  assert.equal(await page.locator('#board svg .zone').count(), 10, 'the zones are shaded on the board');
  assert.equal(await page.getAttribute('#variant-link', 'href'), '/variants/chessball-1957');
  assert.equal(await page.locator('#rules-panel[open]').count(), 0, 'the rules are folded');
  await page.click('#rules-panel summary');
  await page.locator('#rules-panel-text').waitFor();
  const explain = await page.evaluate(async () => (await (await fetch('/api/variants/chessball-1957/page')).json()).explain);
  assert.equal(await page.textContent('#rules-panel-text'), explain);
  await page.click('#variant-link');
  await page.waitForURL(/\/variants\/chessball-1957$/);
  await page.locator('#variant-title').waitFor();
});

test('the lobby and the editor link to a variant\'s page', { timeout: 120000 }, async (t) => {
  const page = await newPage(t);
  await page.goto(`${server.url}/`);
  const made = await page.evaluate(async () => (await fetch('/api/account', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'pages', password: 'correct horse' }),
  })).status);
  assert.equal(made, 201);
  // From a variant's page to the lobby, the variant chosen.
  await page.goto(`${server.url}/variants/apo-chessball`);
  await page.click('#seek-lobby');
  await page.waitForURL(/\/lobby\?variant=apo-chessball$/);
  await page.locator('#seek-variant').waitFor();
  assert.equal(await page.inputValue('#seek-variant'), 'apo-chessball');
  assert.equal(await page.getAttribute('#seek-variant-page', 'href'), '/variants/apo-chessball');
  await page.selectOption('#seek-variant', 'vchess');
  assert.equal(await page.getAttribute('#seek-variant-page', 'href'), '/variants/vchess');
  await page.click('#seek-submit');
  await page.locator('.seek-item .variant-link').waitFor();
  assert.equal(await page.getAttribute('.seek-item .variant-link', 'href'), '/variants/vchess');
  // From a variant's page to the editor, its definition loaded, and back.
  await page.goto(`${server.url}/variants/stadium`);
  await page.click('#open-editor');
  await page.waitForURL(/\/author\?variant=stadium$/);
  await page.locator('#verdict.valid').waitFor();
  const text = await page.evaluate(async () => (await (await fetch('/api/variants')).json())
    .find((v) => v.name === 'stadium').text);
  assert.equal(await page.inputValue('#editor'), text);
  assert.equal(await page.getAttribute('#variant-page-link', 'href'), '/variants/stadium');
  assert.equal(await page.isVisible('#variant-page-link'), true);
  // A text of one's own is no shipped variant: no link.
  await page.fill('#editor', `${text}\n# mine\n`);
  await page.waitForFunction(() => document.querySelector('#variant-page-link').hidden);
});
