// Puzzles in a real browser: the sets are listed, a puzzle of two turns or more is played by
// typing each turn, a wrong turn is told, the board answers with its defence, and the goal
// solves it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { useBrowser, sharedServer, screenshot, KICKOFF } from './harness.mjs';

const { newPage } = useBrowser();
const server = sharedServer();

/** A turn that forces the goal within `turns` from `fen`, as `kickoff solve` names it. */
function forcing(variant, fen, turns) {
  const out = execFileSync(KICKOFF, ['solve', variant, '--fen', fen, '--turns', String(turns), '--format', 'json']);
  const found = JSON.parse(out.toString());
  assert.equal(found.verdict, 'win', fen);
  return found.turn;
}

test('a puzzle is played by typed turns to the goal, the board defending', { timeout: 120000 }, async (t) => {
  const page = await newPage(t, { viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}/`);
  await page.click('a[data-nav="puzzles"]');
  await page.waitForURL(`${server.url}/puzzles`);
  assert.equal(await page.locator('#puzzle-sets li').count(), 5);
  assert.match(await page.textContent('#puzzle-sets li[data-variant="boyer-1951"]'), /100 puzzles/);
  // The first of Boyer's puzzles that takes two turns or more.
  const number = await page.evaluate(async () => {
    for (let n = 1; n <= 100; n += 1) {
      const p = await (await fetch(`/api/puzzles/boyer-1951/${n}`)).json();
      if (p.turns >= 2) return n;
    }
    return 0;
  });
  assert.ok(number > 0);
  await page.goto(`${server.url}/puzzles/boyer-1951#${number}`);
  await page.locator('#board svg').waitFor();
  assert.equal(await page.textContent('#puzzle-title'), `Football Chess: puzzle ${number} of 100`);
  const task = await page.textContent('#puzzle-task');
  const turns = Number(task.match(/within (\d) turns/)[1]);
  assert.ok(turns >= 2, task);
  // A turn that is not the answer: the first that `kickoff turns` lists, or the second.
  await page.click('#puzzle-show');
  const answer = (await page.textContent('#puzzle-answer')).replace('The first turn: ', '');
  await page.click('#puzzle-reset');
  const listed = execFileSync(KICKOFF, ['turns', 'boyer-1951', '--fen', await page.textContent('#puzzle-fen')])
    .toString().split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf(' ')), l.slice(l.indexOf(' ') + 1)]);
  const [, answered] = listed.find(([turn]) => turn === answer);
  await page.fill('#puzzle-turn', listed.find(([, after]) => after !== answered)[0]);
  await page.click('#puzzle-play');
  await page.waitForFunction(() => document.querySelector('#puzzle-message').dataset.verdict === 'wrong');
  assert.match(await page.textContent('#puzzle-message'), /does not force the goal/);
  assert.equal(await page.getAttribute('#puzzle-line', 'data-turns'), '0');
  // The answer (hidden again once the puzzle starts again), then a forcing turn after each
  // defence.
  assert.equal(await page.locator('#puzzle-answer').isHidden(), true);
  let typed = answer;
  for (let left = turns - 1; left >= 1; left -= 1) {
    const before = Number(await page.getAttribute('#puzzle-line', 'data-turns'));
    await page.fill('#puzzle-turn', typed);
    await page.click('#puzzle-play');
    await page.waitForFunction((n) => document.querySelector('#puzzle-line').dataset.turns === String(n + 2), before);
    assert.equal(await page.locator('#puzzle-line li').count(), (before + 2) / 2);
    assert.match(await page.textContent('#puzzle-message'), /The board answers .*Your turn/);
    typed = forcing('boyer-1951', await page.textContent('#puzzle-fen'), left);
  }
  await page.fill('#puzzle-turn', typed);
  await page.click('#puzzle-play');
  await page.waitForFunction(() => document.querySelector('#puzzle-message').dataset.verdict === 'solved');
  assert.match(await page.textContent('#puzzle-message'), /^Solved: a goal in \d turns\.$/);
  assert.equal(await page.locator('#puzzle-turn').isDisabled(), true);
  await screenshot(page, 'puzzle');
  // Start again, and on to the next puzzle.
  await page.click('#puzzle-reset');
  assert.equal(await page.locator('#puzzle-line li').count(), 0);
  assert.equal(await page.locator('#puzzle-answer').isHidden(), true);
  await page.click('#puzzle-next');
  await page.waitForFunction((n) => document.querySelector('#puzzle-title').textContent.includes(`puzzle ${n + 1} of`), number);
});

test('a variant with puzzles links to them from its page', { timeout: 60000 }, async (t) => {
  const page = await newPage(t, { viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}/variants/chessball-1957`);
  await page.locator('#variant-puzzles').waitFor();
  assert.equal(await page.textContent('#variant-puzzles'), '100 puzzles');
  await page.click('#variant-puzzles');
  await page.waitForURL(`${server.url}/puzzles/chessball-1957#1`);
  await page.locator('#board svg').waitFor();
  assert.equal(await page.textContent('#puzzle-title'), 'Chessball: puzzle 1 of 100');
});
