// The header's account: sign up, sign in and out, the account's name, and a badge counting its
// games where it is its turn. It also follows the lobby's events for every screen that needs
// them (the badge, the lobby, a finished game waiting for a rematch): one stream a page, its
// events gathered so that a burst of changes costs one round of requests.

import { get, post, del, el } from './api.js';

let mePromise = null;

/** Who is signed in: `{name, admin}`, `name` null when no one is. */
export function whoAmI() {
  if (!mePromise) mePromise = get('/api/me').catch(() => ({ name: null, admin: false }));
  return mePromise;
}

const listeners = new Set();
let source = null;
let pending = null;
let lastRun = 0;
/** The account's games as last read, for the badge and the screens that listen. */
let myGames = [];

/**
 * The least time between two rounds of requests after lobby events, in milliseconds: the first
 * event after a quiet while is answered at once, those of a busy lobby (a turn of any game is
 * an event) gathered, so that a page asks a request every two seconds at most however busy.
 */
const GATHER = 2000;

/**
 * Calls `listener(myGames)` now and after each change of the lobby (at most every GATHER ms),
 * `myGames` being the account's games (empty when signed out). Returns a function that stops.
 */
export function onLobbyChange(listener) {
  listeners.add(listener);
  if (!source) {
    source = new EventSource('/api/lobby/events');
    // The first event comes as the stream opens, again after the server restarts.
    source.addEventListener('lobby', () => schedule());
  }
  schedule();
  return () => listeners.delete(listener);
}

function schedule() {
  if (pending) return;
  const wait = Math.max(0, lastRun + GATHER - Date.now());
  pending = setTimeout(async () => {
    lastRun = Date.now();
    try {
      const me = await whoAmI();
      myGames = me.name ? await get('/api/my/games') : [];
    } catch {
      // The lists stay as they were; the next event tries again.
    }
    pending = null;
    for (const listener of [...listeners]) {
      try {
        await listener(myGames);
      } catch {
        // A screen's failure to refresh is shown by the screen, not here.
      }
    }
  }, wait);
}

/** The header's account part, in `host`. */
export async function showHeader(host) {
  const me = await whoAmI();
  if (me.name) {
    const badge = el('a', { id: 'my-turns', class: 'badge', href: '/lobby#my-games', hidden: true,
      title: 'Your games where it is your turn' });
    const out = el('button', { id: 'sign-out', class: 'link', onclick: async () => {
      try {
        await post('/api/logout');
      } finally {
        location.reload();
      }
    } }, 'Sign out');
    const panel = accountPanel(me);
    const name = el('button', { id: 'account-name', class: 'link name', 'aria-expanded': 'false',
      title: 'Your account: e-mail notices, password, tokens for bots',
      onclick: () => {
        panel.hidden = !panel.hidden;
        name.setAttribute('aria-expanded', String(!panel.hidden));
        if (!panel.hidden) panel.dispatchEvent(new Event('open'));
      } }, me.name);
    host.replaceChildren(badge, name, out, panel);
    onLobbyChange((games) => {
      const turns = games.filter((g) => g.your_turn).length;
      badge.hidden = turns === 0;
      badge.textContent = turns === 1 ? '1 game: your turn' : `${turns} games: your turn`;
      badge.dataset.count = String(turns);
    });
    return;
  }
  const name = el('input', { id: 'account-user', name: 'name', autocomplete: 'username', required: true,
    minlength: 2, maxlength: 20, size: 14, 'aria-label': 'Name', placeholder: 'name' });
  const password = el('input', { id: 'account-password', name: 'password', type: 'password',
    required: true, minlength: 8, size: 14, 'aria-label': 'Password', placeholder: 'password' });
  const submit = el('button', { id: 'account-submit', type: 'submit', class: 'primary' });
  const error = el('p', { id: 'account-error', class: 'error', hidden: true });
  const hint = el('p', { class: 'hint' });
  let mode = 'login';
  const form = el('form', { id: 'account-form', class: 'account-form', hidden: true, onsubmit: async (e) => {
    e.preventDefault();
    error.hidden = true;
    submit.disabled = true;
    try {
      await post(mode === 'signup' ? '/api/account' : '/api/login',
        { name: name.value.trim(), password: password.value });
      location.reload();
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
      submit.disabled = false;
    }
  } }, name, password, submit, hint, error);
  const open = (which) => {
    const again = !form.hidden && mode === which;
    mode = which;
    form.hidden = again;
    submit.textContent = which === 'signup' ? 'Sign up' : 'Sign in';
    password.setAttribute('autocomplete', which === 'signup' ? 'new-password' : 'current-password');
    hint.textContent = which === 'signup'
      ? 'A name of 2 to 20 letters, digits, _ or -; a password of 8 characters or more.'
      : '';
    error.hidden = true;
    if (!form.hidden) name.focus();
  };
  host.replaceChildren(
    el('button', { id: 'sign-in', class: 'link', onclick: () => open('login') }, 'Sign in'),
    el('button', { id: 'sign-up', class: 'link', onclick: () => open('signup') }, 'Sign up'),
    form);
}

/**
 * The account's settings, opened from its name: the e-mail address notices of correspondence
 * games go to, the password, and the bearer tokens of its bots and scripts (made, each shown
 * once, and revoked).
 */
function accountPanel(me) {
  const say = (node, text, error = false) => {
    node.textContent = text;
    node.className = error ? 'error' : 'hint';
    node.hidden = !text;
  };
  const form = (id, onsubmit, ...children) => el('form', { id, onsubmit: async (e) => {
    e.preventDefault();
    await onsubmit();
  } }, ...children);

  const email = el('input', { id: 'account-email', type: 'email', size: 22, value: me.email || '',
    autocomplete: 'email', 'aria-label': 'E-mail address', placeholder: 'none' });
  const emailSaid = el('p', { id: 'account-email-said', hidden: true });
  const emailForm = form('account-email-form', async () => {
    try {
      const address = email.value.trim();
      await post('/api/me/email', { email: address || null });
      say(emailSaid, address ? `Notices go to ${address}.` : 'No notices by e-mail.');
    } catch (e) {
      say(emailSaid, e.message, true);
    }
  }, el('label', { for: 'account-email' }, 'E-mail me when it is my turn in a correspondence game:'),
  el('div', { class: 'row' }, email, el('button', { type: 'submit' }, 'Save')), emailSaid);

  const current = el('input', { id: 'account-current', type: 'password', autocomplete: 'current-password',
    required: true, 'aria-label': 'Current password', placeholder: 'current password' });
  const fresh = el('input', { id: 'account-new', type: 'password', autocomplete: 'new-password', required: true,
    minlength: 8, 'aria-label': 'New password', placeholder: 'new password (8 or more)' });
  const passwordSaid = el('p', { id: 'account-password-said', hidden: true });
  const passwordForm = form('account-password-form', async () => {
    try {
      await post('/api/me/password', { password: current.value, new: fresh.value });
      current.value = '';
      fresh.value = '';
      say(passwordSaid, 'Password changed; your other browsers are signed out.');
    } catch (e) {
      say(passwordSaid, e.message, true);
    }
  }, el('label', { for: 'account-current' }, 'Change the password:'), current, fresh,
  el('button', { type: 'submit' }, 'Change'), passwordSaid);

  const tokens = el('ul', { id: 'account-tokens', class: 'tokens' });
  const label = el('input', { id: 'account-token-label', maxlength: 100, size: 16,
    'aria-label': 'What the token is for', placeholder: 'what it is for' });
  const made = el('p', { id: 'account-token-made', class: 'hint', hidden: true });
  const tokensSaid = el('p', { id: 'account-tokens-said', hidden: true });
  const showTokens = async () => {
    try {
      const list = await get('/api/tokens');
      tokens.replaceChildren(...list.map((t) => el('li', { 'data-id': t.id },
        el('span', {}, t.label || '(no label)'), ' ',
        el('span', { class: 'hint' }, new Date(t.created).toLocaleDateString()), ' ',
        el('button', { type: 'button', class: 'revoke', onclick: async () => {
          try {
            await del(`/api/tokens/${t.id}`);
            made.hidden = true;
            await showTokens();
          } catch (e) {
            say(tokensSaid, e.message, true);
          }
        } }, 'Revoke'))));
      if (list.length === 0) tokens.replaceChildren(el('li', { class: 'hint' }, 'No tokens.'));
    } catch (e) {
      say(tokensSaid, e.message, true);
    }
  };
  const tokenForm = form('account-token-form', async () => {
    try {
      const answer = await post('/api/tokens', { label: label.value.trim() || null });
      label.value = '';
      made.replaceChildren('Your new token, shown this once: ',
        el('code', { id: 'account-token' }, answer.token),
        ' (a bot uses it as kickoff bot --token, or in an Authorization: Bearer header).');
      made.hidden = false;
      tokensSaid.hidden = true;
      await showTokens();
    } catch (e) {
      say(tokensSaid, e.message, true);
    }
  }, el('label', { for: 'account-token-label' }, 'Tokens for bots and scripts:'), tokens,
  el('div', { class: 'row' }, label, el('button', { type: 'submit' }, 'Make a token')), made, tokensSaid);

  const panel = el('div', { id: 'account-panel', class: 'account-form account-panel', hidden: true },
    emailForm, passwordForm, tokenForm);
  panel.addEventListener('open', showTokens);
  return panel;
}
