// What every browser test needs: kickoff's server on a free port with its own games folder,
// and Debian's Chromium driven by playwright-core.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const KICKOFF = process.env.KICKOFF_BIN || join(root, 'target', 'release', 'kickoff');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

/**
 * Starts `kickoff serve` on a free port with a data folder of its own (its database, and its
 * games by link in `games`); `data` reuses a folder and `port` a port (a restart, which the
 * pages still open find again).
 */
export async function startServer(data, { port = 0 } = {}) {
  const folder = data || mkdtempSync(join(tmpdir(), 'kickoff-data-'));
  const child = spawn(KICKOFF, ['serve', '--port', String(port), '--data', folder], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no address from kickoff serve: ${out}`)), 15000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const found = out.match(/kickoff serves (http:\/\/\S+)/);
      if (found) {
        clearTimeout(timer);
        resolve(found[1].replace(/\/$/, ''));
      }
    });
    child.on('exit', (code) => reject(new Error(`kickoff serve ended with ${code}: ${out}`)));
  });
  return {
    url,
    port: Number(new URL(url).port),
    folder,
    async stop() {
      if (child.exitCode !== null) return;
      const ended = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await ended;
    },
    remove() {
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * Debian's Chromium, headless. Playwright gives it a fresh --user-data-dir of its own, and each
 * context is a separate browser session (its own storage), as two people's browsers are.
 */
export async function startBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-quic',
    ],
  });
}

/**
 * One server for all the tests of a file: started before them, stopped and removed after them.
 * The object returned is filled in (`url`, `folder`...) once the server is up.
 */
export function sharedServer() {
  const shared = {};
  before(async () => {
    Object.assign(shared, await startServer());
  });
  after(async () => {
    await shared.stop();
    shared.remove();
  });
  return shared;
}

/**
 * Chromium for the tests of one file, started before them and closed after them, and what gives
 * each test a server and pages of its own.
 */
export function useBrowser() {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  /**
   * A server for one test, stopped and removed at its end, after the test's pages are closed (a
   * page still asking the server when it stops would raise an error that is not the test's).
   */
  async function withServer(t) {
    const server = await startServer();
    t.after(async () => {
      for (const context of browser.contexts()) await context.close();
      await server.stop();
      server.remove();
    });
    return server;
  }

  /**
   * A page in a browser session of its own (its own cookies) of the size `viewport`, at `url`
   * when one is given; at the test's end it must have raised no error.
   */
  async function newPage(t, { url, viewport = { width: 1280, height: 860 } } = {}) {
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    page.setDefaultTimeout(20000);
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    t.after(async () => {
      await context.close();
      assert.deepEqual(errors, [], 'the page raised no error');
    });
    if (url) await page.goto(url);
    return page;
  }

  /** A page for each of `names` in a browser of its own at `url`, each signed up as that name. */
  async function signedIn(t, url, ...names) {
    const pages = [];
    for (const name of names) {
      const page = await newPage(t, { url });
      await signUp(page, name);
      pages.push(page);
    }
    return pages;
  }

  return { withServer, newPage, signedIn };
}

/** Makes an account from the header's form; the page is signed in once it reloads. */
export async function signUp(page, name, password = 'correct horse') {
  await page.click('#sign-up');
  await page.fill('#account-user', name);
  await page.fill('#account-password', password);
  await page.click('#account-submit');
  await page.waitForFunction((n) => document.querySelector('#account-name')?.textContent === n, name);
}

/** Clicks the centre of a square of the board on `page` (whatever stands on it). */
export async function clickSquare(page, square) {
  const rect = page.locator(`#board .squares rect[data-square="${square}"]`);
  // The board is drawn anew after each turn: a click that finds the old drawing going (the
  // square not visible) is tried again on the new one; no click has been made then.
  for (let attempt = 1; ; attempt++) {
    try {
      await rect.waitFor({ state: 'visible' });
      await rect.click({ force: true, timeout: 5000 });
      return;
    } catch (e) {
      if (attempt >= 3 || !/not visible|detached/i.test(String(e))) throw e;
    }
  }
}

/** Drags from one square to another with the mouse. */
export async function dragSquare(page, from, to) {
  const a = await page.locator(`#board .squares rect[data-square="${from}"]`).boundingBox();
  const b = await page.locator(`#board .squares rect[data-square="${to}"]`).boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2 + a.width / 2, (a.y + b.y) / 2 + a.height / 2, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 4 });
  await page.mouse.up();
}

/** Starts a game from the first screen; returns once its board is shown. */
export async function newGame(page, base, { variant = 'boyer-1951', opponent = 'engine', level = 1, side = 'white', setup = '' } = {}) {
  await page.goto(`${base}/`);
  await page.selectOption('#variant', variant);
  await page.check(`input[name=opponent][value=${opponent}]`);
  await page.selectOption('#level', String(level));
  await page.selectOption('#side', side);
  if (setup) await page.fill('#setup', setup);
  await page.click('#start');
  await page.waitForURL(/\/play\//);
  await page.locator('#board svg').waitFor();
}

/** Where screenshots go when SCREENSHOTS names a folder. */
export async function screenshot(page, name, options = {}) {
  if (!process.env.SCREENSHOTS) return;
  await page.screenshot({ path: join(process.env.SCREENSHOTS, `${name}.png`), ...options });
}
