// The lobby in a real browser: people in browsers of their own (each a Chromium context, with
// its own cookies) sign up, seek, accept, play with clocks, watch and chat. Each test starts its
// own `kickoff serve` with an empty data folder.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useBrowser, startServer, clickSquare, screenshot, KICKOFF } from './harness.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** A game of Boyer's rules in which White scores at the 79th turn. */
const TURNS = readFileSync(join(root, 'tests/data/records/turns-79.txt'), 'utf8').split('\n').filter(Boolean);

const { withServer, newPage, signedIn } = useBrowser();

/** Fills the lobby's form and seeks a game (or challenges `to`). */
async function seek(page, { variant = 'boyer-1951', color = 'random', live = null, days = null, to = '' }) {
  await page.selectOption('#seek-variant', variant);
  await page.selectOption('#seek-color', color);
  if (live) {
    await page.check('#seek-live');
    await page.fill('#seek-minutes', String(live.minutes));
    await page.fill('#seek-seconds', String(live.seconds));
    await page.fill('#seek-increment', String(live.increment));
  } else {
    await page.check('#seek-correspondence');
    await page.fill('#seek-days', String(days));
  }
  await page.fill('#seek-to', to);
  await page.click('#seek-submit');
  await page.locator('#seek-done').waitFor();
}

const moves = (page) => page.locator('#moves .move').allTextContents();

/** Waits until the move list holds `n` turns. */
async function waitForMoves(page, n) {
  await page.waitForFunction((count) => document.querySelectorAll('#moves .move').length === count, n);
}

/** Waits until the page's status says `text`. */
async function waitForStatus(page, text) {
  await page.waitForFunction((t) => document.querySelector('#status')?.textContent === t, text);
}

/** Plays a turn by the typed-notation box, once the page has it to play. */
async function play(page, turn) {
  await page.locator('#typed-turn:enabled').waitFor();
  await page.fill('#typed-turn', turn);
  await page.click('#play-typed');
}

/** What a clock shows, in milliseconds. */
const clock = async (page, side) => Number(await page.getAttribute(`#clock-${side}`, 'data-ms'));

test('two players meet in the lobby and play a live game to a goal while a third watches and chats', { timeout: 300000 }, async (t) => {
  const started = Date.now();
  const server = await withServer(t);
  const lobby = `${server.url}/lobby`;
  const [alice, bob, carol] = await signedIn(t, lobby, 'alice', 'bob', 'carol');
  // A name is taken whatever its case, and the form says so.
  const mallory = await newPage(t, { url: lobby });
  await mallory.click('#sign-up');
  await mallory.fill('#account-user', 'Alice');
  await mallory.fill('#account-password', 'another password');
  await mallory.click('#account-submit');
  await mallory.locator('#account-error').waitFor();
  assert.match(await mallory.textContent('#account-error'), /taken/);
  await mallory.context().close();

  // Alice seeks a live game; Bob sees the seek arrive and accepts it: both are taken to it.
  await seek(alice, { color: 'white', live: { minutes: 5, seconds: 0, increment: 3 } });
  const offered = bob.locator('#seeks .seek-item[data-user="alice"]');
  await offered.waitFor();
  assert.match(await offered.textContent(), /Football Chess · 5 min \+ 3 s · alice plays White/);
  assert.equal(await alice.locator('#seeks .seek-item[data-user="alice"] .accept').count(), 0, 'no accepting one\'s own seek');
  await offered.locator('.accept').click();
  await bob.waitForURL(/\/play\/[0-9a-f]{24}\/[0-9a-f]{32}$/);
  await alice.waitForURL(/\/play\/[0-9a-f]{24}\/[0-9a-f]{32}$/);
  const id = alice.url().split('/')[4];
  assert.equal(bob.url().split('/')[4], id);
  assert.notEqual(bob.url(), alice.url(), 'each player has a link of their own');
  for (const page of [alice, bob]) {
    await page.locator('#seats').waitFor();
    assert.equal(await page.textContent('#seat-white .name'), 'alice');
    assert.equal(await page.textContent('#seat-black .name'), 'bob');
    assert.equal(await page.locator('#invite').isHidden(), true, 'no invitation in a lobby game');
  }
  await waitForStatus(alice, 'Your turn (White).');
  await waitForStatus(bob, 'Waiting for alice (White)…');
  // Each sees the other here, and White's clock running.
  await alice.locator('#seat-black .presence.here').waitFor();
  await bob.locator('#seat-white .presence.here').waitFor();
  const first = await clock(bob, 'white');
  await bob.waitForFunction((ms) => Number(document.querySelector('#clock-white').dataset.ms) < ms - 500, first);
  assert.equal(await clock(bob, 'black'), 300000, 'Black\'s clock waits');
  assert.match(await bob.textContent('#clock-black'), /^5:00$/);
  await alice.waitForFunction(() => document.querySelector('#my-turns').textContent === '1 game: your turn');
  // A piece chosen draws the page again: the clock counts on from where it was.
  const counted = await clock(alice, 'white');
  await clickSquare(alice, 'b1');
  await alice.locator('.mark.selected').waitFor();
  assert.ok(await clock(alice, 'white') <= counted, 'the running clock is not set back');

  // Carol finds the game in the lobby and watches it: the players see a spectator.
  await carol.locator(`#live-games .game-item[data-id="${id}"]`).waitFor();
  assert.match(await carol.textContent(`#live-games .game-item[data-id="${id}"]`), /alice – bob/);
  await carol.locator(`#live-games .game-item[data-id="${id}"] .open`).click();
  await carol.waitForURL(`${server.url}/watch/${id}`);
  await carol.locator('#board svg').waitFor();
  // Each page reads the game again when told that Carol came: neither waits for the other.
  for (const page of [alice, carol]) {
    await page.waitForFunction(() => document.querySelector('#spectators').textContent === '1 spectator');
  }
  assert.equal(await carol.textContent('#seat-white .name'), 'alice');
  await carol.locator('#seat-white .presence.here').waitFor();
  await carol.locator('#seat-black .presence.here').waitFor();
  // The watch link the players copy is this page.
  await alice.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await alice.click('#copy-watch-link');
  await alice.locator('#watch-link-copied').waitFor();
  assert.equal(await alice.evaluate(() => navigator.clipboard.readText()), `${server.url}/watch/${id}`);

  // The game, turn by turn through the typed-notation box; Carol sees the turns arrive.
  // Three people on one address share its rate of requests (20 a second, as README says): a
  // turn costs three (the turn, and the game read again by the two other pages), so the test
  // plays at most four turns a second, faster than people do.
  let chatted = false;
  let last = 0;
  for (const [i, turn] of TURNS.entries()) {
    const [mover, other] = i % 2 === 0 ? [alice, bob] : [bob, alice];
    await new Promise((resolve) => { setTimeout(resolve, Math.max(0, last + 250 - Date.now())); });
    last = Date.now();
    await play(mover, turn);
    await waitForMoves(other, i + 1);
    if (i === 0) {
      // Bob's badge counts his turn; Alice's no longer does.
      await bob.locator('#my-turns:not([hidden])').waitFor();
      await alice.locator('#my-turns[hidden]').waitFor({ state: 'attached' });
      await waitForMoves(carol, 1);
      assert.deepEqual(await moves(carol), [TURNS[0]]);
      await carol.waitForFunction(() => document.querySelector('#status').textContent === 'bob (Black) to play.');
    }
    if (i === 20 && !chatted) {
      // Carol writes in the chat (markup is text, nothing more); the players read it.
      chatted = true;
      const message = '<b>nice</b> & <img src=x onerror=alert(1)> pass';
      await carol.fill('#chat-input', message);
      await carol.click('#chat-send');
      for (const page of [alice, bob, carol]) {
        await page.waitForFunction((m) => document.querySelector('#chat-messages .chat-text')?.textContent === m, message);
        assert.equal(await page.textContent('#chat-messages .chat-user'), 'carol');
        assert.equal(await page.locator('#chat-messages b, #chat-messages img').count(), 0, 'no markup made');
      }
      await alice.fill('#chat-input', 'thanks!');
      await alice.click('#chat-send');
      await carol.waitForFunction(() => document.querySelectorAll('#chat-messages .chat-message').length === 2);
      await screenshot(carol, 'lobby-watch');
    }
  }
  await waitForMoves(carol, TURNS.length);
  for (const page of [alice, bob, carol]) await waitForStatus(page, '1-0: White scores a goal.');
  assert.deepEqual(await moves(carol), TURNS);
  assert.equal(await carol.locator('#board .ball').getAttribute('data-square'), 'e9');
  assert.match(await carol.textContent('#clock-black'), /^\d:\d\d$/, 'the clocks stop');

  // A rematch: Bob offers it, Alice accepts it, and both are taken to the new game, colours
  // swapped.
  await bob.locator('#rematch').waitFor();
  await bob.click('#rematch');
  await bob.waitForFunction(() => document.querySelector('#rematch-status').textContent === 'Rematch offered to alice.');
  await alice.waitForFunction(() => document.querySelector('#rematch').textContent === 'Accept the rematch');
  await alice.click('#rematch');
  await alice.waitForURL((url) => url.pathname.startsWith('/play/') && !url.pathname.includes(id));
  await bob.waitForURL((url) => url.pathname.startsWith('/play/') && !url.pathname.includes(id));
  await waitForStatus(bob, 'Your turn (White).');
  assert.equal(await bob.textContent('#seat-white .name'), 'bob');
  // Alice, now Black, sees the board from Black's side, her own seat below.
  await alice.locator('#board svg[data-flipped="true"]').waitFor();
  assert.equal(await alice.textContent('#seats .seat:last-child .name'), 'alice');
  console.log(`# a live game of ${TURNS.length} turns, watched: ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

test('the lobby lists seeks, challenges and games live; a challenge is declined, a seek cancelled', { timeout: 120000 }, async (t) => {
  const server = await withServer(t);
  const lobby = `${server.url}/lobby`;
  const [alice, bob] = await signedIn(t, lobby, 'alice', 'bob');
  const visitor = await newPage(t, { url: lobby });
  assert.match(await visitor.textContent('#lobby-sign-in'), /Sign in or sign up/);
  // Bob challenges Alice to Football 960 with a setup of her choosing; she declines.
  await seek(bob, { variant: 'football-960', days: 2, to: 'alice' });
  const challenge = alice.locator('#challenges .seek-item[data-user="bob"]');
  await challenge.waitFor();
  assert.match(await challenge.textContent(), /bob challenges you/);
  assert.equal(await visitor.locator('#challenges .seek-item').count(), 0, 'a challenge is for its two players');
  await challenge.locator('.decline').click();
  await bob.locator('#challenges .seek-item').waitFor({ state: 'detached' });
  // Seeks open to anyone, of several variants: the visitor sees them arrive, but cannot accept.
  await seek(alice, { variant: 'soccer-chess-1998', color: 'black', days: 3 });
  await seek(alice, { variant: 'vchess', live: { minutes: 3, seconds: 0, increment: 2 } });
  await seek(bob, { variant: 'mini', color: 'black', live: { minutes: 10, seconds: 0, increment: 5 } });
  await visitor.waitForFunction(() => document.querySelectorAll('#seeks .seek-item').length === 3);
  assert.equal(await visitor.locator('#seeks .accept').count(), 0);
  // Alice accepts Bob's seek of Mini Football, then plays a turn; the visitor sees the game
  // among those to watch, and Bob's badge counts his turn in the other game.
  await alice.locator('#seeks .seek-item[data-user="bob"] .accept').click();
  await alice.waitForURL(/\/play\//);
  await bob.waitForURL(/\/play\//);
  await visitor.locator('#live-games .game-item').waitFor();
  await alice.goto(lobby);
  await alice.locator('#my-games .game-item').waitFor();
  await visitor.waitForFunction(() => document.querySelectorAll('#seeks .seek-item').length === 2);
  // Bob, back in the lobby, seeks another game and challenges Alice again.
  await bob.goto(lobby);
  await seek(bob, { variant: 'stadium', live: { minutes: 15, seconds: 0, increment: 10 } });
  await seek(bob, { variant: 'vchess-ball', days: 1, to: 'alice' });
  await alice.locator('#challenges .seek-item[data-user="bob"]').waitFor();
  await alice.waitForFunction(() => document.querySelectorAll('#seeks .seek-item').length === 3);
  await screenshot(alice, 'lobby', { fullPage: true });
  // Alice cancels one of her seeks.
  const vchess = alice.locator('#seeks .seek-item', { hasText: 'vchess.club' });
  await vchess.locator('.cancel').click();
  await visitor.waitForFunction(() => document.querySelectorAll('#seeks .seek-item').length === 2);
});

test('a live game is lost on time, and the page shows it', { timeout: 120000 }, async (t) => {
  const server = await withServer(t);
  const lobby = `${server.url}/lobby`;
  const [alice, bob] = await signedIn(t, lobby, 'alice', 'bob');
  // Eight seconds each: Bob, White, plays at once; Alice, Black, lets her time run out.
  await seek(alice, { color: 'black', live: { minutes: 0, seconds: 8, increment: 0 } });
  await bob.locator('#seeks .seek-item[data-user="alice"] .accept').click();
  await bob.waitForURL(/\/play\//);
  await alice.waitForURL(/\/play\//);
  await play(bob, 'Nc3');
  await waitForMoves(alice, 1);
  const left = await clock(alice, 'black');
  assert.ok(left > 0 && left <= 8000, `${left}`);
  await alice.waitForFunction(() => /^0:0\d\.\d$/.test(document.querySelector('#clock-black').textContent));
  for (const page of [alice, bob]) {
    await waitForStatus(page, '1-0: Black loses on time.');
    assert.equal(await page.textContent('#clock-black'), '0:00.0');
    assert.equal(await page.locator('#seat-black.to-move').count(), 0, 'no clock runs');
  }
  assert.equal(await alice.locator('#typed-turn:enabled').count(), 0, 'no turn is entered');
  await alice.goto(lobby);
  const game = alice.locator('#my-games .game-item');
  await game.waitFor();
  assert.match(await game.textContent(), /1-0 \(time forfeit\)/);
});

test('a correspondence game survives a restart of the server', { timeout: 120000 }, async (t) => {
  const server = await startServer();
  t.after(() => server.remove());
  const lobby = `${server.url}/lobby`;
  const [alice, bob] = await signedIn(t, lobby, 'alice', 'bob');
  await seek(alice, { color: 'white', days: 3, to: 'bob' });
  await bob.locator('#challenges .seek-item[data-user="alice"] .accept').click();
  await bob.waitForURL(/\/play\//);
  await alice.waitForURL(/\/play\//);
  assert.match(await alice.textContent('#clock-white'), /^2 d 23 h$/);
  await play(alice, 'Nc3');
  await waitForMoves(bob, 1);
  // The server stops, and starts again on the same data folder and port: the open pages find
  // it again by themselves, and the game goes on.
  await server.stop();
  const again = await startServer(server.folder, { port: server.port });
  t.after(() => again.stop());
  await play(bob, 'Nc7');
  await waitForMoves(alice, 2);
  await waitForStatus(alice, 'Your turn (White).');
  await bob.reload();
  await waitForMoves(bob, 2);
  assert.deepEqual(await moves(bob), ['Nc3', 'Nc7']);
  assert.equal(await bob.textContent('#account-name'), 'bob', 'the session outlives the restart');
  assert.match(await bob.textContent('#clock-black'), /^3 d 0 h$/);
  // Signing out and in again, with the wrong password first.
  await bob.click('#sign-out');
  await bob.locator('#sign-in').waitFor();
  await bob.click('#sign-in');
  await bob.fill('#account-user', 'bob');
  await bob.fill('#account-password', 'not the password');
  await bob.click('#account-submit');
  await bob.locator('#account-error:not([hidden])').waitFor();
  assert.equal(await bob.textContent('#account-error'), 'wrong name or password');
  await bob.fill('#account-password', 'correct horse');
  await bob.click('#account-submit');
  await bob.waitForFunction(() => document.querySelector('#account-name')?.textContent === 'bob');
  await waitForMoves(bob, 2);
});

test('a player mutes another in the chat, an administrator deletes a message, and an account keeps its settings', { timeout: 120000 }, async (t) => {
  const server = await withServer(t);
  const lobby = `${server.url}/lobby`;
  const [alice, bob] = await signedIn(t, lobby, 'alice', 'bob');
  // Carol is made an administrator with kickoff admin, on the running server's database.
  const [carol] = await signedIn(t, lobby, 'carol');
  execFileSync(KICKOFF, ['admin', 'make-admin', 'carol', '--data', server.folder]);
  await seek(alice, { color: 'white', days: 2, to: 'bob' });
  await bob.locator('#challenges .seek-item[data-user="alice"] .accept').click();
  await bob.waitForURL(/\/play\//);
  await alice.waitForURL(/\/play\//);
  const id = new URL(alice.url()).pathname.split('/')[2];
  await carol.goto(`${server.url}/watch/${id}`);
  const say = async (page, text) => {
    await page.fill('#chat-input', text);
    await page.click('#chat-send');
  };
  const messages = (page) => page.locator('#chat-messages .chat-text').allTextContents();
  const waitForChat = (page, texts) => page.waitForFunction((want) => JSON.stringify(
    [...document.querySelectorAll('#chat-messages .chat-text')].map((m) => m.textContent)) === want,
  JSON.stringify(texts));
  await say(bob, 'good luck');
  await say(bob, 'you will need it');
  await waitForChat(alice, ['good luck', 'you will need it']);
  // One's own messages have no mute; no one but an administrator has a delete.
  assert.equal(await bob.locator('#chat-messages .chat-mute').count(), 0);
  assert.equal(await alice.locator('#chat-messages .chat-delete').count(), 0);
  // Alice mutes Bob: his messages go from her page, not from the others'.
  await alice.locator('#chat-messages .chat-mute').first().click();
  await waitForChat(alice, []);
  assert.equal(await alice.textContent('#chat-notice'), "You no longer read bob's messages. Read them again");
  await say(bob, 'are you there?');
  await waitForChat(carol, ['good luck', 'you will need it', 'are you there?']);
  assert.deepEqual(await messages(alice), []);
  await alice.click('#chat-unmute');
  await waitForChat(alice, ['good luck', 'you will need it', 'are you there?']);
  // Carol, an administrator, deletes one message for everyone.
  await carol.reload();
  await waitForChat(carol, ['good luck', 'you will need it', 'are you there?']);
  await carol.locator('#chat-messages .chat-message', { hasText: 'you will need it' }).locator('.chat-delete').click();
  for (const page of [carol, alice, bob]) await waitForChat(page, ['good luck', 'are you there?']);

  // Alice's account: an address for notices, a token made and revoked, a new password.
  await alice.click('#account-name');
  await alice.locator('#account-panel:not([hidden])').waitFor();
  await alice.fill('#account-email', 'alice@example.org');
  await alice.click('#account-email-form button[type=submit]');
  await alice.locator('#account-email-said:not([hidden])').waitFor();
  assert.equal(await alice.textContent('#account-email-said'), 'Notices go to alice@example.org.');
  await alice.fill('#account-token-label', 'my bot');
  await alice.click('#account-token-form button[type=submit]');
  const token = await alice.textContent('#account-token');
  assert.match(token, /^kt_[0-9a-f]{64}$/);
  const me = await (await fetch(`${server.url}/api/me`, { headers: { Authorization: `Bearer ${token}` } })).json();
  assert.equal(me.name, 'alice');
  assert.equal(me.email, 'alice@example.org');
  await alice.locator('#account-tokens li', { hasText: 'my bot' }).locator('.revoke').click();
  await alice.locator('#account-tokens li', { hasText: 'No tokens.' }).waitFor();
  const after = await (await fetch(`${server.url}/api/me`, { headers: { Authorization: `Bearer ${token}` } })).json();
  assert.equal(after.name, null, 'the revoked token signs no one in');
  await alice.fill('#account-current', 'not it');
  await alice.fill('#account-new', 'battery staple');
  await alice.click('#account-password-form button[type=submit]');
  await alice.locator('#account-password-said.error').waitFor();
  await alice.fill('#account-current', 'correct horse');
  await alice.click('#account-password-form button[type=submit]');
  await alice.waitForFunction(() => document.querySelector('#account-password-said').textContent.startsWith('Password changed'));
  const login = (password) => fetch(`${server.url}/api/login`, { method: 'POST',
    headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'alice', password }) });
  assert.equal((await login('correct horse')).status, 401);
  assert.equal((await login('battery staple')).status, 200);
});
