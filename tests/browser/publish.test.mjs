// Publishing in a real browser: one account writes a variant in the editor and publishes it;
// another finds it in the gallery, clones it into its editor and plays it against the engine;
// the first seeks a game of it in the lobby.
// The test starts its own `kickoff serve` with an empty data folder.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, signUp, screenshot } from './harness.mjs';

const { withServer, newPage } = useBrowser();

/** Waits until the editor's text has been checked and found valid. */
async function waitForValid(page) {
  await page.locator('#verdict.valid').waitFor();
}

// A variant of Mini Football's rules, with a title of its own.
const TEXT = `extends = "mini"

[variant]
name = "Gallery Drill"
description = "Mini Football, published."
`;

// A variant of a carried ball, whose title must be shown as text, never read as markup.
const CARRIED = `extends = "vchess-ball"

[variant]
name = "<b>Holder</b> & co"
`;

test('a variant written and published by one account is found, cloned and played by another', { timeout: 180000 }, async (t) => {
  const server = await withServer(t);

  // Alice writes it in the editor and publishes it for everyone.
  const alice = await newPage(t, { url: `${server.url}/author` });
  await alice.locator('#publish-hint').waitFor();
  assert.equal(await alice.locator('#publish-form').count(), 0, 'signed out, the editor asks to sign in');
  await signUp(alice, 'alice');
  await alice.locator('#publish-form').waitFor();
  await alice.fill('#editor', TEXT);
  await waitForValid(alice);
  await alice.fill('#publish-name', 'drill');
  await alice.selectOption('#publish-visibility', 'public');
  await alice.click('#publish');
  const link = alice.locator('#publish-link');
  await link.waitFor();
  assert.equal(await link.getAttribute('href'), '/gallery/alice/drill');
  assert.equal(await link.textContent(), `${server.url}/gallery/alice/drill`);
  await alice.locator('#my-variants li[data-name="drill"]').waitFor();
  // And another through the API, as a script would.
  const status = await alice.evaluate(async (text) => {
    const response = await fetch('/api/published', { method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'holder', visibility: 'public', text }) });
    return response.status;
  }, CARRIED);
  assert.equal(status, 201);

  // Bob opens the gallery: both are there, each drawn, their titles shown as text.
  const bob = await newPage(t, { url: `${server.url}/gallery` });
  await signUp(bob, 'bob');
  await bob.waitForFunction(() => document.querySelectorAll('.gallery-item').length === 2);
  await bob.waitForFunction(() => [...document.querySelectorAll('.gallery-item img')]
    .every((img) => img.complete && img.naturalWidth > 0));
  const holder = bob.locator('.gallery-item[data-name="holder"]');
  assert.equal(await holder.locator('h3').textContent(), '<b>Holder</b> & co');
  assert.equal(await holder.locator('h3 b').count(), 0, 'no markup from a title');
  assert.match(await holder.textContent(), /a carried ball/);
  await screenshot(bob, 'gallery');
  // He searches by name and finds Alice's first.
  await bob.fill('#gallery-q', 'drill');
  await bob.click('#gallery-search');
  await bob.waitForFunction(() => document.querySelectorAll('.gallery-item').length === 1);
  const item = bob.locator('.gallery-item[data-owner="alice"][data-name="drill"]');
  await item.waitFor();
  assert.equal(await item.locator('h3').textContent(), 'Gallery Drill');
  assert.match(await item.locator('a.version-page').getAttribute('href'), /^\/variants\/[0-9a-f]{24}\.toml$/);
  // A search that matches nothing says so.
  await bob.fill('#gallery-q', 'no such thing');
  await bob.click('#gallery-search');
  await bob.waitForFunction(() => document.querySelector('#gallery-summary')?.textContent === 'No published variant matches.');
  await bob.fill('#gallery-q', 'drill');
  await bob.click('#gallery-search');
  await item.waitFor();

  // He clones it into his editor, which holds its text, and plays it against the engine.
  await item.locator('.clone').click();
  await bob.waitForURL(/\/author\?clone=/);
  await bob.waitForFunction((text) => document.querySelector('#editor')?.value === text, TEXT);
  await waitForValid(bob);
  await bob.click('#play-engine');
  await bob.waitForURL(/\/play\//);
  await bob.locator('#board svg').waitFor();
  await bob.locator('#typed-turn:enabled').waitFor();
  await bob.fill('#typed-turn', 'Nc3');
  await bob.click('#play-typed');
  await bob.waitForFunction(() => document.querySelectorAll('#moves .move').length === 2);
  assert.equal(await bob.locator('#moves .move').first().textContent(), 'Nc3');

  // From the first screen, Bob plays the published version against the engine.
  await bob.goto(`${server.url}/`);
  const first = bob.locator('#variant option[data-published]', { hasText: 'Gallery Drill (alice/drill)' });
  await first.waitFor({ state: 'attached' });
  await bob.selectOption('#variant', await first.getAttribute('value'));
  assert.equal(await bob.locator('#definition').isHidden(), true, 'no definition to paste');
  await bob.click('#start');
  await bob.waitForURL(/\/play\//);
  await bob.locator('#typed-turn:enabled').waitFor();
  await bob.fill('#typed-turn', 'Nc3');
  await bob.click('#play-typed');
  await bob.waitForFunction(() => document.querySelectorAll('#moves .move').length === 2);

  // On its screen, Alice makes her second variant unlisted: Bob's gallery lists it no more,
  // though its link still shows it to him.
  await alice.goto(`${server.url}/gallery/alice/holder`);
  await alice.locator('#published-title').waitFor();
  assert.equal(await alice.locator('#published-hide').count(), 0, 'only an administrator hides');
  await alice.selectOption('#published-visibility', 'unlisted');
  await alice.waitForFunction(() => document.querySelector('#published-visibility')?.value === 'unlisted'
    && /unlisted/.test(document.querySelector('#published').textContent));
  await bob.goto(`${server.url}/gallery`);
  await bob.waitForFunction(() => document.querySelectorAll('.gallery-item').length === 1);
  await bob.goto(`${server.url}/gallery/alice/holder`);
  assert.equal(await bob.textContent('#published-title'), '<b>Holder</b> & co');
  assert.equal(await bob.locator('#published-visibility').count(), 0, 'only its owner changes it');
  assert.equal(await bob.locator('#versions li').count(), 1);

  // In the lobby, Alice seeks a game of her variant, which Bob sees by its title.
  await alice.goto(`${server.url}/lobby`);
  const option = alice.locator('#seek-variant option', { hasText: 'Gallery Drill (alice/drill)' });
  await option.waitFor({ state: 'attached' });
  await alice.selectOption('#seek-variant', await option.getAttribute('value'));
  await alice.check('#seek-correspondence');
  await alice.fill('#seek-days', '3');
  await alice.click('#seek-submit');
  await alice.locator('#seek-done').waitFor();
  await bob.goto(`${server.url}/lobby`);
  const offered = bob.locator('#seeks .seek-item[data-user="alice"]');
  await offered.waitFor();
  assert.match(await offered.textContent(), /Gallery Drill \(alice\/drill\)/);
});
