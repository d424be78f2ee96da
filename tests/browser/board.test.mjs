// kickoff's web board in a real browser: Debian's Chromium, headless, driven by playwright-core.
// Each test starts its own `kickoff serve` with an empty data folder.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  useBrowser, startServer, KICKOFF, newGame, clickSquare, dragSquare, screenshot,
} from './harness.mjs';

const { withServer, newPage } = useBrowser();
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const moves = (page) => page.locator('#moves .move').allTextContents();

/** Waits until the move list holds `n` turns. */
async function waitForMoves(page, n) {
  await page.waitForFunction((count) => document.querySelectorAll('#moves .move').length === count, n);
}

// A definition whose start is a kick chain: the rook on d4 sends the ball up the d-file, the
// rook that moved to c7 passes it on along rank 7. Black has no piece and must pass.
const CHAIN = `extends = "boyer-1951"

[variant]
name = "Chain drill"

[setup]
fen = "9/9/3R5/9/3a5/3R5/9/9/9 w 0"
`;

test('a game of Boyer\'s Football Chess played by clicks, to a goal', { timeout: 120000 }, async (t) => {
  const server = await withServer(t);
  const page = await newPage(t);
  await newGame(page, server.url, { opponent: 'hotseat' });
  await screenshot(page, 'play-start');
  // 1. Bd4>g7: the bishop from g1 to d4 (dragged), then its kick to g7 (a click on the ball's
  // square), then the end of the turn.
  await dragSquare(page, 'g1', 'd4');
  await page.locator('.mark.kick[data-square="g7"]').waitFor();
  assert.equal(await page.locator('#board .piece[data-square="d4"]').count(), 1, 'the bishop stands on d4');
  assert.equal(await page.textContent('#turn-so-far'), 'Your turn so far: Bd4');
  await clickSquare(page, 'g7');
  await page.waitForFunction(() => document.querySelector('#turn-so-far').textContent.includes('Bd4>g7')
    || document.querySelectorAll('#moves .move').length === 1);
  if ((await moves(page)).length === 0) await page.click('#end-turn');
  await waitForMoves(page, 1);
  // 1... Ba3 by clicks: the piece, then its square (its possible squares are marked).
  await clickSquare(page, 'g9');
  await page.locator('.mark.target[data-square="a3"]').waitFor();
  await clickSquare(page, 'a3');
  await waitForMoves(page, 2);
  // 2. Bh6>e9#: the bishop from c1 to h6 kicks the ball from g7 over f8 into Black's goal.
  await clickSquare(page, 'c1');
  await clickSquare(page, 'h6');
  await page.locator('.mark.kick[data-square="e9"]').waitFor();
  await clickSquare(page, 'e9');
  await page.locator('#status.over').waitFor();
  assert.deepEqual(await moves(page), ['Bd4>g7', 'Ba3', 'Bh6>e9#']);
  assert.equal(await page.textContent('#status'), '1-0: White scores a goal.');
  assert.equal(await page.locator('#board .ball').getAttribute('data-square'), 'e9');
  await screenshot(page, 'play-goal');
  // The record downloads with the game in kickoff's notation.
  const record = await page.evaluate(async () => (await fetch(document.querySelector('#download').href)).text());
  assert.match(record, /1\. Bd4>g7 Ba3 2\. Bh6>e9# 1-0/);
  assert.doesNotMatch(record, /Key/, 'the links\' keys stay on the server');
});

test('against the engine: clicks, a typed turn, the reply, undo', { timeout: 120000 }, async (t) => {
  const server = await withServer(t);
  const page = await newPage(t);
  await newGame(page, server.url, { opponent: 'engine', level: 1 });
  await clickSquare(page, 'b1');
  await page.locator('.mark.target[data-square="c3"]').waitFor();
  await clickSquare(page, 'c3');
  await waitForMoves(page, 2); // the engine answers
  assert.equal((await moves(page))[0], 'Nc3');
  await page.fill('#typed-turn', 'Nb1');
  await page.click('#play-typed');
  await waitForMoves(page, 4);
  assert.equal((await moves(page))[2], 'Nb1');
  await page.fill('#typed-turn', 'Qz9');
  await page.click('#play-typed');
  await page.waitForFunction(() => document.querySelector('#status').textContent.includes('Qz9'));
  await page.click('#undo');
  await waitForMoves(page, 2);
  assert.equal(await page.locator('#board .piece[data-square="c3"]').count(), 1, 'the knight is back on c3');
});

test('an answer overtaken by a newer view of the game does not replace it', { timeout: 120000 }, async (t) => {
  const server = await withServer(t);
  const page = await newPage(t);
  await newGame(page, server.url, { opponent: 'engine', level: 1 });
  // The answer to the turn is held back until the engine has replied and the page has heard of
  // it: the answer, older than what the page shows by then, arrives last.
  let held = 0;
  await page.route('**/play', async (route) => {
    const response = await route.fetch();
    held += 1;
    await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 2);
    await route.fulfill({ response });
  });
  const delivered = page.waitForResponse('**/play');
  await clickSquare(page, 'b1');
  await page.locator('.mark.target[data-square="c3"]').waitFor();
  await clickSquare(page, 'c3');
  await waitForMoves(page, 2);
  // Once the held answer has reached the page, a moment for the page to read it.
  await delivered;
  await page.evaluate(() => new Promise((done) => setTimeout(done, 300)));
  assert.equal(held, 1, 'the turn\'s answer was held back');
  assert.equal((await moves(page)).length, 2, 'the engine\'s reply stays shown');
  assert.equal(await page.textContent('#status'), 'Your turn (White).');
});

test('a kick chain entered step by step', { timeout: 120000 }, async (t) => {
  const server = await withServer(t);
  const page = await newPage(t);
  await page.goto(`${server.url}/`);
  await page.selectOption('#variant', '');
  await page.fill('#definition', CHAIN);
  await page.check('input[name=opponent][value=hotseat]');
  await page.click('#start');
  await page.locator('#board svg').waitFor();
  assert.equal(await page.textContent('#title'), 'Chain drill');
  // The rook moves d7-c7; the squares the ball can reach from d5 are shown.
  await clickSquare(page, 'd7');
  await clickSquare(page, 'c7');
  await page.locator('.mark.kick[data-square="d7"]').waitFor();
  assert.equal(await page.textContent('#turn-so-far'), 'Your turn so far: Rc7');
  // The first kick: the rook on d4 sends the ball to d7, beside the rook on c7.
  await clickSquare(page, 'd7');
  await page.locator('.mark.kick[data-square="f7"]').waitFor();
  assert.equal(await page.textContent('#turn-so-far'), 'Your turn so far: Rc7>d7');
  assert.equal(await page.locator('#board .ball').getAttribute('data-square'), 'd7');
  assert.ok(await page.isEnabled('#end-turn'), 'the turn may end after a kick');
  // A step taken back, and entered again.
  await page.click('#step-back');
  await page.locator('#board .ball[data-square="d5"]').waitFor();
  await clickSquare(page, 'd7');
  await page.locator('.mark.kick[data-square="f7"]').waitFor();
  // The pass: the rook on c7 sends it on to f7; nothing can follow, so the turn ends.
  await clickSquare(page, 'f7');
  await waitForMoves(page, 1);
  assert.deepEqual(await moves(page), ['Rc7>d7>f7']);
  // Black has no piece: its only turn is the pass.
  await page.locator('#null-turn').waitFor();
  await page.click('#null-turn');
  await waitForMoves(page, 2);
  assert.deepEqual(await moves(page), ['Rc7>d7>f7', '--']);
});

test('two browsers play one game through its links', { timeout: 120000 }, async (t) => {
  const server = await withServer(t);
  const first = await newPage(t);
  await newGame(first, server.url, { opponent: 'remote' });
  const invite = await first.inputValue('#invite-link');
  assert.match(invite, /\/play\/[0-9a-f]{24}\/[0-9a-f]{32}$/);
  const second = await newPage(t);
  await second.goto(invite);
  await second.locator('#board svg').waitFor();
  assert.equal(await second.textContent('#status'), 'Waiting for White…');
  assert.equal(await second.locator('#invite').isHidden(), true, 'only the maker sees the invitation');
  await screenshot(first, 'two-browsers');
  await clickSquare(first, 'b1');
  await clickSquare(first, 'c3');
  // The second browser hears of the turn without reloading.
  await waitForMoves(second, 1);
  assert.equal(await second.textContent('#status'), 'Your turn (Black).');
  await clickSquare(second, 'h9');
  await clickSquare(second, 'g7');
  await waitForMoves(first, 2);
  assert.deepEqual(await moves(first), ['Nc3', 'Ng7']);
  // A draw offered in one browser is accepted in the other.
  await first.click('#offer-draw');
  await second.locator('#accept-draw').waitFor();
  await second.click('#accept-draw');
  await first.locator('#status.over').waitFor();
  assert.equal(await first.textContent('#status'), '1/2-1/2: draw by agreement.');
  // A wrong key is no way in.
  const wrong = invite.replace(/[0-9a-f]{32}$/, '0'.repeat(32));
  const status = await second.evaluate(async (url) => (await fetch(url.replace('/play/', '/api/games/'))).status, wrong);
  assert.equal(status, 404);
});

test('a reload resumes the game, and so does a restarted server', { timeout: 120000 }, async (t) => {
  const server = await startServer();
  t.after(() => server.remove());
  const page = await newPage(t);
  await newGame(page, server.url, { opponent: 'engine', level: 1 });
  await clickSquare(page, 'b1');
  await clickSquare(page, 'c3');
  await waitForMoves(page, 2);
  const before = await moves(page);
  const address = page.url();
  await page.reload();
  await waitForMoves(page, 2);
  assert.deepEqual(await moves(page), before);
  assert.equal(await page.textContent('#status'), 'Your turn (White).');
  // The server stops and starts again on the same data folder: the link still works.
  await server.stop();
  const again = await startServer(server.folder);
  t.after(() => again.stop());
  await page.goto(address.replace(server.url, again.url));
  await waitForMoves(page, 2);
  assert.deepEqual(await moves(page), before);
  await clickSquare(page, 'h1');
  await clickSquare(page, 'g3');
  await waitForMoves(page, 4);
});

test('the authoring page shows a mistake at its line, then plays the fixed variant', { timeout: 120000 }, async (t) => {
  const server = await withServer(t);
  const page = await newPage(t);
  await page.goto(`${server.url}/author`);
  await page.selectOption('#template', 'mini');
  await page.locator('#verdict.valid').waitFor();
  const text = await page.inputValue('#editor');
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l === 'moves = "R"') + 1;
  assert.ok(line > 0);
  lines[line - 1] = 'moves = "Rz"';
  await page.fill('#editor', lines.join('\n'));
  await page.locator('#verdict.invalid').waitFor();
  const first = page.locator('.diagnostic.error').first();
  assert.equal(await first.getAttribute('data-line'), String(line));
  assert.match(await first.textContent(), new RegExp(`definition\\.toml:${line}:\\d+`));
  assert.match(await page.locator(`.gutter [data-line="${line}"]`).getAttribute('class'), /error/);
  assert.ok(await page.isDisabled('#play-engine'));
  await screenshot(page, 'author-mistake');
  // Fixed: the diagram, the rules in words, and a game at once.
  lines[line - 1] = 'moves = "R"';
  await page.fill('#editor', lines.join('\n'));
  await page.locator('#verdict.valid').waitFor();
  assert.match(await page.textContent('#explain'), /Mini Football/);
  assert.equal(await page.locator('#diagram svg').count(), 1);
  await page.fill('#games', '5');
  await page.click('#simulate');
  await page.locator('#simulated-summary').waitFor();
  assert.match(await page.textContent('#simulated-summary'), /^5 random games/);
  await page.click('#play-engine');
  await page.waitForURL(/\/play\//);
  await page.locator('#board svg').waitFor();
  assert.equal(await page.textContent('#title'), 'Mini Football');
});

test('a record opened and stepped through', { timeout: 120000 }, async (t) => {
  const server = await withServer(t);
  const page = await newPage(t);
  await page.goto(`${server.url}/records`);
  await page.fill('#record', '[Variant "boyer-1951"]\n[White "Ann"]\n\n1. Bd4>g7 Ba3 2. Bh6>e9# 1-0\n');
  await page.click('#open-record');
  await page.locator('#board svg').waitFor();
  await page.waitForFunction(() => document.querySelector('#where').textContent.includes('turn 3 of 3'));
  assert.equal(await page.locator('#board .ball').getAttribute('data-square'), 'e9');
  await page.click('#first');
  await page.waitForFunction(() => document.querySelector('#where').textContent.startsWith('The start'));
  assert.equal(await page.locator('#board .ball').getAttribute('data-square'), 'e5');
  await page.click('#next');
  await page.waitForFunction(() => document.querySelector('#where').textContent.includes('Bd4>g7'));
  assert.equal(await page.locator('#board .ball').getAttribute('data-square'), 'g7');
  assert.equal(await page.locator('#board .arrows [data-from="e5"][data-to="g7"]').count(), 1, 'the kick is drawn');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('#where').textContent.includes('Ba3'));
  await page.locator('#moves .move', { hasText: 'Bh6>e9#' }).click();
  await page.waitForFunction(() => document.querySelector('#where').textContent.includes('turn 3 of 3'));
  assert.match(await page.textContent('.records .status.over'), /1-0: White scores a goal/);
  await screenshot(page, 'record', { fullPage: true });
  // A record that breaks keeps its turns up to the break and says why.
  await page.fill('#record', '[Variant "boyer-1951"]\n\n1. Nc3 Nc7 2. Nd3 *\n');
  await page.click('#open-record');
  await page.locator('#record-error').waitFor();
  assert.match(await page.textContent('#record-error'), /Nd3/);
  // Its board is drawn at the last turn it kept (the page's last request is answered before
  // the server stops).
  await page.waitForFunction(() => document.querySelector('#where').textContent.includes('turn 2 of 2'));
});

test("the balance report's sample games open on the board, a file's definition with them", { timeout: 120000 }, async (t) => {
  const server = await withServer(t);
  const html = execFileSync(KICKOFF, ['analyze', 'tests/data/compare/mini-line.toml', '--games', '4',
    '--level', '1', '--threads', '1', '--format', 'html', '--board', `${server.url}/`], { cwd: root, encoding: 'utf8' });
  const links = [...html.matchAll(/<a href="([^"]+)">game (\d+): ([^,]+), (\d+) turns<\/a>/g)];
  assert.ok(links.length > 0, html);
  const [, href, , result, turns] = links[0];
  const page = await newPage(t);
  await page.goto(href.replaceAll('&amp;', '&'));
  await page.locator('#board svg').waitFor();
  await page.waitForFunction((n) => document.querySelector('#where').textContent.includes(`turn ${n} of ${n}`), Number(turns));
  assert.equal(await page.locator('#moves .move').count(), Number(turns));
  assert.match(await page.textContent('#viewer'), new RegExp(result.replace(/[/]/g, '\\/')));
});

// vchess.club's Ball from a fixed position: a pawn on b8 about to promote, a rook that can take
// the pawn on h5, a knight holding the ball on e4 and a bishop on f6 to pass it to.
const BALL = `format = 1

[variant]
name = "Ball drill"

[board]
files = 9
ranks = 9

[goals]
white = "d9-f9"
black = "d1-f1"

[pieces.P]
name = "pawn"
moves = "fmWfceFifmnD"
goals = "always"
promotion = "a9-i9"
promote_to = "RNBQH"
holder = "S"

[pieces.R]
name = "rook"
moves = "R3"
goals = "always"
holder = "U"

[pieces.N]
name = "knight"
moves = "N"
goals = "always"
holder = "O"

[pieces.B]
name = "bishop"
moves = "B3"
goals = "always"
holder = "C"

[pieces.Q]
name = "queen"
moves = "Q3"
goals = "always"
holder = "T"

[pieces.H]
name = "phoenix"
moves = "WA"
goals = "always"
holder = "I"

[ball]
mode = "carried"
pass = true
steal = "both"
holder_captures = false

[capture]
mode = "replace"

[setup]
fen = "9/1P7/9/r4B3/7p1/4O4/9/7R1/9 w 0 - -"
`;

test('a capture, a pass of a carried ball and a promotion chosen, by clicks', { timeout: 120000 }, async (t) => {
  const server = await withServer(t);
  const page = await newPage(t);
  await page.goto(`${server.url}/`);
  await page.selectOption('#variant', '');
  await page.fill('#definition', BALL);
  await page.check('input[name=opponent][value=hotseat]');
  await page.click('#start');
  await page.locator('#board svg').waitFor();
  // The ball is drawn beside the knight that holds it.
  await page.locator('#board .ball[data-square="e4"][data-held="true"]').waitFor();
  // The rook takes the pawn on h5.
  await clickSquare(page, 'h2');
  await page.locator('.mark.target[data-square="h5"]').waitFor();
  await clickSquare(page, 'h5');
  await waitForMoves(page, 1);
  assert.equal(await page.locator('#board .piece[data-square="h5"]').count(), 1);
  await clickSquare(page, 'a6');
  await clickSquare(page, 'a7');
  await waitForMoves(page, 2);
  // The knight passes the ball to the bishop: the holder, then the friend.
  await clickSquare(page, 'e4');
  await page.locator('.mark.target[data-square="f6"]').waitFor();
  await clickSquare(page, 'f6');
  await waitForMoves(page, 3);
  await page.locator('#board .ball[data-square="f6"][data-held="true"]').waitFor();
  await clickSquare(page, 'a7');
  await clickSquare(page, 'a8');
  await waitForMoves(page, 4);
  // The pawn reaches b9: the page asks which piece it becomes.
  await clickSquare(page, 'b8');
  await clickSquare(page, 'b9');
  await page.locator('#choices button.option').first().waitFor();
  assert.match(await page.textContent('#choices'), /Promote to which piece\?/);
  assert.deepEqual(await page.locator('#choices button.option').allTextContents(),
    ['rook (Pb9=R)', 'knight (Pb9=N)', 'bishop (Pb9=B)', 'queen (Pb9=Q)', 'phoenix (Pb9=H)']);
  await page.click('#choices button.option >> text=queen');
  await waitForMoves(page, 5);
  assert.deepEqual(await moves(page), ['Rxh5', 'Ra7', '>f6', 'Ra8', 'Pb9=Q']);
  await screenshot(page, 'play-carried-ball');
});

test('a Soccer Chess set of two moves, ended by "End turn"', { timeout: 120000 }, async (t) => {
  const server = await withServer(t);
  const page = await newPage(t);
  await newGame(page, server.url, { variant: 'soccer-chess-1998', opponent: 'hotseat' });
  // The holes beside the crossbars are no squares at all; the score is shown.
  assert.equal(await page.locator('#board .squares rect[data-square="a1"]').count(), 0);
  assert.equal(await page.locator('#board .squares rect[data-square="e1"]').count(), 1);
  assert.match(await page.textContent('#players'), /score 0–0/);
  await clickSquare(page, 'b5');
  await clickSquare(page, 'a3');
  await page.waitForFunction(() => document.querySelector('#turn-so-far').textContent.endsWith('Da3 (4 moves left)'));
  assert.ok(await page.isEnabled('#end-turn'), 'a set may end after one move');
  await clickSquare(page, 'e5');
  await clickSquare(page, 'c4');
  await page.waitForFunction(() => document.querySelector('#turn-so-far').textContent.endsWith('Da3Dc4 (3 moves left)'));
  await page.click('#end-turn');
  await waitForMoves(page, 1);
  assert.deepEqual(await moves(page), ['Da3Dc4']);
  await page.waitForFunction(() => document.querySelector('#status').textContent.includes('Black'));
  await screenshot(page, 'play-soccer-chess');
});

/** The squares of the pieces that may act, as the board marks them. */
const movable = (page) => page.locator('.mark.movable').evaluateAll((marks) => marks.map((m) => m.dataset.square));

test('a click on a piece selects it and never plays a turn, even where the ball could go', { timeout: 120000 }, async (t) => {
  const server = await withServer(t);
  const page = await newPage(t);
  // Between two browsers, where a turn played cannot be taken back.
  await newGame(page, server.url, { variant: 'chessball-1957', opponent: 'remote' });
  // The attacker on c3 may step onto the ball on c4 and kick it back to c3 (>c3): a click on
  // it selects it, and the kick is offered beside the board.
  await clickSquare(page, 'c3');
  await page.locator('.mark.selected[data-square="c3"]').waitFor();
  assert.equal(await page.textContent('#turn-so-far'), '');
  assert.deepEqual(await moves(page), []);
  assert.deepEqual(await page.locator('#choices button.option').allTextContents(), ['>c3']);
  // A second click lets it go.
  await clickSquare(page, 'c3');
  await page.locator('.mark.selected').waitFor({ state: 'detached' });
  assert.deepEqual(await moves(page), []);
  // Every piece that may act, clicked in turn: selected, then let go, nothing played.
  for (const square of await movable(page)) {
    await clickSquare(page, square);
    await page.locator(`.mark.selected[data-square="${square}"]`).waitFor();
    await clickSquare(page, square);
    await page.locator('.mark.selected').waitFor({ state: 'detached' });
  }
  assert.deepEqual(await moves(page), []);
  assert.equal(await page.textContent('#turn-so-far'), '');
  // The attacker to d4: a move or a kick from c4, so the page asks.
  await clickSquare(page, 'c3');
  await clickSquare(page, 'd4');
  assert.deepEqual(await page.locator('#choices button.option').allTextContents(), ['Sc>d4', 'Scd4']);
  assert.deepEqual(await moves(page), []);
  // The kick back to c3, chosen by the ball and then its square: the last step, so played.
  await clickSquare(page, 'c4');
  await page.locator('.mark.selected[data-square="c4"]').waitFor();
  await clickSquare(page, 'c3');
  await waitForMoves(page, 1);
  assert.deepEqual(await moves(page), ['>c3']);
});

test('in Apo ChessBall a click on any piece that may act only selects it', { timeout: 120000 }, async (t) => {
  const server = await withServer(t);
  const page = await newPage(t);
  await newGame(page, server.url, { variant: 'apo-chessball', opponent: 'hotseat' });
  // White's bishop to d8, beside the ball on e8: now kicks may follow, and pieces still act.
  await clickSquare(page, 'h4');
  await clickSquare(page, 'd8');
  await page.waitForFunction(() => document.querySelector('#turn-so-far').textContent.endsWith('Bd8 (3 kicks left)'));
  for (const square of await movable(page)) {
    await clickSquare(page, square);
    await page.locator(`.mark.selected[data-square="${square}"]`).waitFor();
    await clickSquare(page, square);
    await page.locator('.mark.selected').waitFor({ state: 'detached' });
  }
  assert.equal(await page.textContent('#turn-so-far'), 'Your turn so far: Bd8 (3 kicks left)');
  assert.deepEqual(await moves(page), []);
});

// Black's rook on e5 can kick the ball from e4 down the e-file into White's goal on e1; White's
// rook on a3 can step into its path, and its bishop on f3 kick the ball away after that.
const THREAT = `extends = "boyer-1951"

[variant]
name = "Threat drill"

[setup]
fen = "9/9/9/9/4r4/4a4/R4B3/9/9 w 0"
`;

test('against the engine the threat of a goal is shown, and goes when the turn stops it', { timeout: 120000 }, async (t) => {
  const server = await withServer(t);
  const page = await newPage(t);
  await page.goto(`${server.url}/`);
  // Each level is explained where it is chosen.
  for (const level of ['1', '2', '3', '4']) {
    await page.selectOption('#level', level);
    assert.match(await page.textContent('#level-help'), /turns? ahead|a turn/);
  }
  await page.selectOption('#level', '1');
  assert.match(await page.textContent('#level-help'), /^Looks one turn ahead/);
  await page.selectOption('#variant', '');
  await page.fill('#definition', THREAT);
  await page.check('input[name=opponent][value=engine]');
  await page.selectOption('#side', 'white');
  await page.click('#start');
  await page.locator('#board svg').waitFor();
  // Shown unasked against the engine: the words, the squares and the ball's flight.
  assert.ok(await page.isChecked('#show-threats'));
  await page.locator('#threat.danger').waitFor();
  assert.match(await page.textContent('#threat'), /^Threat: Black could score next turn with .*e1/);
  for (const square of ['e5', 'e4', 'e1']) {
    assert.equal(await page.locator(`.mark.threat[data-square="${square}"]`).count(), 1, square);
  }
  assert.equal(await page.locator('.mark.arrow.threat-kick[data-from="e4"][data-to="e1"]').count(), 1);
  await screenshot(page, 'play-threat');
  // The rook steps into the ball's path: after the turn so far, no threat.
  await clickSquare(page, 'a3');
  await clickSquare(page, 'e3');
  await page.waitForFunction(() => document.querySelector('#turn-so-far').textContent.endsWith('Re3'));
  await page.waitForFunction(() => document.querySelector('#threat').textContent.startsWith('No threat'));
  assert.equal(await page.locator('.mark.threat').count(), 0);
  // Taken back, the threat is there again; hidden when not asked for.
  await page.click('#step-back');
  await page.locator('#threat.danger').waitFor();
  await page.uncheck('#show-threats');
  assert.ok(await page.locator('#threat').isHidden());
  assert.equal(await page.locator('.mark.threat').count(), 0);
  await page.reload();
  await page.locator('#board svg').waitFor();
  assert.equal(await page.isChecked('#show-threats'), false, 'the choice is kept');
});

test('while the text is invalid the editor says its drawing is the last valid one', { timeout: 120000 }, async (t) => {
  const server = await withServer(t);
  const page = await newPage(t);
  await page.goto(`${server.url}/author`);
  await page.selectOption('#template', 'mini');
  await page.locator('#verdict.valid').waitFor();
  assert.ok(await page.locator('#stale').isHidden());
  assert.doesNotMatch(await page.getAttribute('#diagram', 'class'), /stale/);
  const text = await page.inputValue('#editor');
  await page.fill('#editor', text.replace('moves = "R"', 'moves = "Rz"'));
  await page.locator('#verdict.invalid').waitFor();
  await page.locator('#diagram.stale svg').waitFor();
  assert.equal(await page.textContent('#stale'), 'The last valid definition; the text now has 1 problem.');
  assert.match(await page.getAttribute('#explain', 'class'), /stale/);
  const opacity = await page.locator('#diagram').evaluate((d) => Number(getComputedStyle(d).opacity));
  assert.ok(opacity < 0.5, `the drawing is dimmed (${opacity})`);
  await screenshot(page, 'author-stale');
  await page.fill('#editor', text);
  await page.locator('#verdict.valid').waitFor();
  assert.ok(await page.locator('#stale').isHidden());
  assert.doesNotMatch(await page.getAttribute('#diagram', 'class'), /stale/);
});

test("Orsi's draft: pieces of the hand placed by clicks, then play", { timeout: 120000 }, async (t) => {
  const server = await withServer(t);
  const page = await newPage(t);
  await newGame(page, server.url, { variant: 'orsi-chess-football', opponent: 'hotseat' });
  assert.match(await page.textContent('#players'),
    /placement stage: White places 3 of QRRBBNNPPPPPP, Black 3 of QRRBBNNPPPPPP/);
  // The empty squares of White's first two ranks are marked; a click on one asks which piece.
  await page.locator('.mark.target[data-square="d1"]').waitFor();
  assert.equal(await page.locator('.mark.target').count(), 13);
  await clickSquare(page, 'd1');
  await page.locator('#choices button.option').first().waitFor();
  assert.match(await page.textContent('#choices'), /Place which piece on d1\?/);
  assert.deepEqual(await page.locator('#choices button.option').allTextContents(),
    ['queen (Q@d1)', 'rook (R@d1)', 'bishop (B@d1)', 'knight (N@d1)', 'pawn (P@d1)']);
  await page.click('#choices button.option >> text=queen');
  await waitForMoves(page, 1);
  await page.locator('#board .piece[data-square="d1"]').waitFor();
  assert.match(await page.textContent('#players'), /White places 2 of RRBBNNPPPPPP, Black 3 of/);
  // Black's five more placements, White's two, typed and clicked.
  for (const [square, piece] of [['c8', 'bishop'], ['a1', 'rook'], ['f8', 'bishop'], ['g1', 'knight']]) {
    await clickSquare(page, square);
    await page.locator('#choices button.option').first().waitFor();
    await page.click(`#choices button.option >> text=${piece}`);
    await page.waitForFunction((sq) => document.querySelector(`#board .piece[data-square="${sq}"]`), square);
  }
  await page.fill('#typed-turn', 'P@c7');
  await page.click('#play-typed');
  await waitForMoves(page, 6);
  assert.deepEqual(await moves(page), ['Q@d1', 'B@c8', 'R@a1', 'B@f8', 'N@g1', 'P@c7']);
  assert.doesNotMatch(await page.textContent('#players'), /placement stage/);
  // Play has begun: the knight on g1 moves.
  await clickSquare(page, 'g1');
  await page.locator('.mark.target[data-square="f3"]').waitFor();
  await clickSquare(page, 'f3');
  await waitForMoves(page, 7);
  await screenshot(page, 'play-draft');
});

test("tulaanh's two action points: a take and a shot, the points left shown", { timeout: 120000 }, async (t) => {
  const server = await withServer(t);
  const page = await newPage(t);
  await newGame(page, server.url, { variant: 'tulaanh-chessfootball', opponent: 'hotseat' });
  assert.match(await page.textContent('#turn-so-far'), /This turn: 2 action points left/);
  // The queen takes the free ball on f8: one point left, and the holder's shots are marked.
  await clickSquare(page, 'g7');
  await page.locator('.mark.target[data-square="f8"]').waitFor();
  await clickSquare(page, 'f8');
  await page.waitForFunction(() => /Qf8 \(1 action point left\)/.test(document.querySelector('#turn-so-far').textContent));
  await page.locator('.mark.kick[data-square="f13"]').waitFor();
  // The holder, then f13, where it may run with the ball or shoot it: asked, the shot up the
  // file ends the turn, its last point spent.
  await clickSquare(page, 'f8');
  await clickSquare(page, 'f13');
  await page.locator('#choices button.option').first().waitFor();
  assert.deepEqual(await page.locator('#choices button.option').allTextContents(), ['Qf8Qf13', 'Qf8>f13']);
  await page.click('#choices button.option >> text=Qf8>f13');
  await waitForMoves(page, 1);
  assert.deepEqual(await moves(page), ['Qf8>f13']);
  await page.locator('#board .ball[data-square="f13"]').waitFor();
  await screenshot(page, 'play-action-points');
});

test('Chess.Football: a pass intercepted by the first enemy in its way ends the turn', { timeout: 120000 }, async (t) => {
  const server = await withServer(t);
  const page = await newPage(t);
  await newGame(page, server.url, { variant: 'chess-football-2025', opponent: 'hotseat' });
  assert.match(await page.textContent('#turn-so-far'), /This turn: 5 action points left/);
  // White's queen holds the ball on e6; her pass up the file meets Black's queen on e7 first,
  // who takes the ball: the turn is over at once, four points unspent.
  await clickSquare(page, 'e6');
  await page.locator('.mark.kick[data-square="e7"]').waitFor();
  assert.equal(await page.locator('.mark.kick[data-square="e8"]').count(), 0);
  await clickSquare(page, 'e7');
  await waitForMoves(page, 1);
  assert.deepEqual(await moves(page), ['>e7']);
  assert.match(await page.textContent('#turn-so-far'), /This turn: 5 action points left/);
});

test('Chess.Football: a tackle takes the ball and pushes the holder aside', { timeout: 120000 }, async (t) => {
  const server = await withServer(t);
  const page = await newPage(t);
  await newGame(page, server.url, { variant: 'chess-football-2025', opponent: 'hotseat' });
  // White's rook steps up, and White ends its turn with four points unspent.
  await clickSquare(page, 'a2');
  await page.locator('.mark.target[data-square="a3"]').waitFor();
  await clickSquare(page, 'a3');
  await page.waitForFunction(() => /Ra3 \(4 action points left\)/.test(document.querySelector('#turn-so-far').textContent));
  await page.click('#end-turn');
  await waitForMoves(page, 1);
  // Black's queen on e7 moves onto White's queen, holding the ball on e6: a tackle. The ball
  // is Black's, and White's queen goes to the first empty square beside it, to the right: f6.
  await clickSquare(page, 'e7');
  await page.locator('.mark.target[data-square="e6"]').waitFor();
  await clickSquare(page, 'e6');
  await page.waitForFunction(() => /\(4 action points left\)/.test(document.querySelector('#turn-so-far').textContent));
  await page.click('#end-turn');
  await waitForMoves(page, 2);
  const played = await moves(page);
  assert.equal(played[0], 'Ra3');
  assert.equal(played[1], 'Qxe6');
  await page.locator('#board .piece[data-square="f6"]').waitFor();
  await page.locator('#board .piece[data-square="e6"]').waitFor();
  assert.equal(await page.locator('#board .piece[data-square="e7"]').count(), 0);
});

test('xfutebol: the attacker takes the ball, then dribbles past the enemy attacker', { timeout: 120000 }, async (t) => {
  const server = await withServer(t);
  const page = await newPage(t);
  await newGame(page, server.url, { variant: 'xfutebol', opponent: 'hotseat' });
  assert.match(await page.textContent('#turn-so-far'), /This turn: 2 action points left/);
  // White's attacker on e4 takes the free ball on e5: a move, one point left.
  await clickSquare(page, 'e4');
  await page.locator('.mark.target[data-square="e5"]').waitFor();
  // Its sprint goes where its moves do not: e7 is beyond its two squares, but the ball on e5
  // is in the way.
  assert.equal(await page.locator('.mark.target[data-square="e7"]').count(), 0);
  await clickSquare(page, 'e5');
  await page.waitForFunction(() => /Ae5 \(1 action point left\)/.test(document.querySelector('#turn-so-far').textContent));
  // Holding the ball, it dribbles over Black's attacker on f5 to g5, its last point.
  await clickSquare(page, 'e5');
  await page.locator('.mark.target[data-square="g5"]').waitFor();
  await clickSquare(page, 'g5');
  await waitForMoves(page, 1);
  assert.deepEqual(await moves(page), ['Ae5Ag5']);
});
