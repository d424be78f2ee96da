// What a game of the lobby shows beside its board, on its players' screen and its public page:
// the players with their clocks (counting down between the server's answers) and whether each
// is here, the spectators, the link of the public page, and the chat. Every name and message is
// set as text.

import { get, post, del, el } from './api.js';

let opening = null;

/** Opens game `id` of the lobby: a player's own link, or its public page. */
export async function openGame(id) {
  // Several reasons to open the same game (an answer, then the lobby's event) go once.
  if (opening === id) return;
  opening = id;
  try {
    const view = await get(`/api/games/${id}`);
    if (view.key) {
      location.assign(`/play/${id}/${view.key}`);
      return;
    }
  } catch {
    // The public page says what is wrong.
  }
  location.assign(`/watch/${id}`);
}

function pad(n) {
  return String(n).padStart(2, '0');
}

/** Milliseconds left on a clock, as a clock shows them. */
export function formatClock(ms) {
  const left = Math.max(0, ms);
  const day = 86400000;
  if (left >= day) {
    const days = Math.floor(left / day);
    const hours = Math.floor((left % day) / 3600000);
    return `${days} d ${hours} h`;
  }
  const seconds = Math.floor(left / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}:${pad(m)}:${pad(s)}`;
  if (left < 10000) return `${m}:${pad(s)}.${Math.floor((left % 1000) / 100)}`;
  return `${m}:${pad(s)}`;
}

/** A time control in words: `5 min + 3 s`, `0:30 + 0 s`, `3 days a turn`. */
export function timeControl(spec) {
  if (!spec) return 'no clock';
  if (spec.days !== undefined) return spec.days === 1 ? '1 day a turn' : `${spec.days} days a turn`;
  const initial = spec.initial % 60 === 0
    ? `${spec.initial / 60} min`
    : `${Math.floor(spec.initial / 60)}:${pad(spec.initial % 60)}`;
  return `${initial} + ${spec.increment} s`;
}

const SIDES = { white: 'White', black: 'Black' };

/**
 * The two players, each with their clock and presence: `top` and `bottom` are sides, the one
 * seen from below first (a player's own side at the bottom).
 */
export class Seats {
  constructor() {
    this.rows = {};
    this.element = el('div', { class: 'seats', id: 'seats' });
    for (const side of ['black', 'white']) {
      const row = {
        presence: el('span', { class: 'presence', 'data-present': 'false' }),
        name: el('span', { class: 'name' }),
        side: el('span', { class: 'side' }, SIDES[side]),
        clock: el('span', { class: 'clock', id: `clock-${side}` }),
      };
      row.element = el('div', { class: 'seat', id: `seat-${side}`, 'data-side': side },
        row.presence, row.name, row.side, row.clock);
      this.rows[side] = row;
    }
    this.order('white');
    this.info = null;
    this.left = null;
    this.timer = null;
  }

  /** Puts `bottom`'s row below the other's. */
  order(bottom) {
    const top = bottom === 'white' ? 'black' : 'white';
    this.element.replaceChildren(this.rows[top].element, this.rows[bottom].element);
  }

  /**
   * Shows `info` (a lobby game's players, clocks and presence) with `toMove`'s clock running
   * unless the game is `over`.
   */
  show(info, toMove, over) {
    for (const side of ['white', 'black']) {
      const row = this.rows[side];
      row.name.textContent = info[side];
      const here = !!(info.present && info.present[side]);
      row.presence.dataset.present = String(here);
      row.presence.classList.toggle('here', here);
      row.presence.title = here ? `${info[side]} is here` : `${info[side]} is away`;
      row.presence.textContent = here ? 'here' : 'away';
      row.element.classList.toggle('to-move', !over && side === toMove);
    }
    if (info !== this.info) {
      // The clocks as the server gave them, counted from now (a page drawn again with the same
      // answer keeps counting).
      this.info = info;
      this.left = info.clock ? { ...info.clock, at: performance.now(), running: over ? null : toMove } : null;
    }
    this.tick();
    if (this.left && this.left.running && !this.timer) {
      this.timer = setInterval(() => this.tick(), 100);
    } else if ((!this.left || !this.left.running) && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** Redraws the clocks, the running one counted down from the last answer. */
  tick() {
    for (const side of ['white', 'black']) {
      const clock = this.rows[side].clock;
      if (!this.left) {
        clock.textContent = '';
        continue;
      }
      let ms = this.left[side];
      if (this.left.running === side) ms -= performance.now() - this.left.at;
      clock.textContent = formatClock(ms);
      clock.dataset.ms = String(Math.max(0, Math.round(ms)));
      clock.classList.toggle('running', this.left.running === side);
      clock.classList.toggle('low', ms < 20000);
    }
  }
}

/** How many others follow the game. */
export function spectatorsText(count) {
  if (count === 0) return 'No spectators';
  return count === 1 ? '1 spectator' : `${count} spectators`;
}

/** The public page's link, shown and copied by a button. */
export function watchLink(path) {
  const url = new URL(path, location.href).href;
  const input = el('input', { id: 'watch-link', readonly: true, value: url, size: 40,
    'aria-label': 'The link of the game\'s public page', onfocus: (e) => e.target.select() });
  const done = el('span', { id: 'watch-link-copied', class: 'hint', hidden: true }, 'Copied.');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      input.focus();
      input.select();
      document.execCommand('copy');
    }
    done.hidden = false;
    setTimeout(() => { done.hidden = true; }, 3000);
  };
  return el('div', { class: 'watch-link' },
    el('span', {}, 'Spectators follow the game at '), input,
    el('button', { id: 'copy-watch-link', type: 'button', onclick: copy }, 'Copy the link'), done);
}

/**
 * A game's chat: its messages, and a line to write one when signed in (`me`: `{name, admin}`).
 * Each message of someone else has a button to mute its writer (for this account, everywhere),
 * and, for an administrator, one to delete it.
 */
export class Chat {
  constructor(id, me) {
    this.path = `/api/games/${id}/chat`;
    this.me = me;
    this.mark = null;
    this.asked = 0;
    this.list = el('ol', { class: 'chat-messages', id: 'chat-messages' });
    this.error = el('p', { class: 'error', id: 'chat-error', hidden: true });
    this.notice = el('p', { class: 'hint', id: 'chat-notice', hidden: true });
    let form;
    if (me.name) {
      this.input = el('input', { id: 'chat-input', maxlength: 500, autocomplete: 'off',
        'aria-label': 'A message', placeholder: 'Say something' });
      form = el('form', { class: 'chat-form', onsubmit: (e) => { e.preventDefault(); this.send(); } },
        this.input, el('button', { type: 'submit', id: 'chat-send' }, 'Send'));
    } else {
      form = el('p', { class: 'hint', id: 'chat-sign-in' }, 'Sign in to write in the chat.');
    }
    this.element = el('section', { class: 'chat', id: 'chat' }, el('h2', {}, 'Chat'), this.list, form,
      this.notice, this.error);
  }

  /** Reads the chat again when its mark is not the one read. */
  async refresh(mark) {
    if (mark === this.mark) return;
    this.mark = mark;
    const asked = ++this.asked;
    let messages;
    try {
      messages = await get(this.path);
    } catch (e) {
      this.mark = null;
      this.showError(e.message);
      return;
    }
    if (asked !== this.asked) return; // a later answer is on its way
    const atBottom = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 4;
    this.list.replaceChildren(...messages.map((m) => this.message(m)));
    if (atBottom) this.list.scrollTop = this.list.scrollHeight;
  }

  /** One message, with the buttons its reader may use on it. */
  message(m) {
    const tools = el('span', { class: 'chat-tools' });
    if (this.me.name && m.user !== this.me.name) {
      tools.append(el('button', { type: 'button', class: 'link chat-mute', title: `Stop reading ${m.user}`,
        onclick: () => this.mute(m.user, true) }, 'Mute'));
    }
    if (this.me.admin) {
      tools.append(el('button', { type: 'button', class: 'link chat-delete', title: 'Delete this message for everyone',
        onclick: () => this.remove(m.id) }, 'Delete'));
    }
    return el('li', { class: 'chat-message', 'data-id': m.id, title: new Date(m.at).toLocaleString() },
      el('span', { class: 'chat-user' }, m.user), ' ', el('span', { class: 'chat-text' }, m.text), tools);
  }

  /** Stops reading `user`'s messages (or reads them again), and says so with a way back. */
  async mute(user, mute) {
    this.error.hidden = true;
    try {
      await post(`/api/users/${encodeURIComponent(user)}/mute`, { mute });
    } catch (e) {
      this.showError(e.message);
      return;
    }
    if (mute) {
      this.notice.replaceChildren(`You no longer read ${user}'s messages. `,
        el('button', { type: 'button', class: 'link', id: 'chat-unmute', onclick: () => this.mute(user, false) },
          'Read them again'));
      this.notice.hidden = false;
    } else {
      this.notice.hidden = true;
    }
    this.mark = null;
    await this.refresh('muted');
  }

  /** An administrator deletes a message for everyone. */
  async remove(id) {
    this.error.hidden = true;
    try {
      await del(`${this.path}/${id}`);
    } catch (e) {
      this.showError(e.message);
      return;
    }
    this.mark = null;
    await this.refresh('deleted');
  }

  async send() {
    const text = this.input.value.trim();
    if (!text) return;
    this.error.hidden = true;
    try {
      await post(this.path, { text });
      this.input.value = '';
      this.mark = null;
      await this.refresh('sent');
    } catch (e) {
      this.showError(e.message);
    }
  }

  showError(message) {
    this.error.textContent = message;
    this.error.hidden = false;
  }
}

/** Fills the list `list` with a game's moves (the view's `moves`), a row per move number, the
 *  last move marked, and scrolls to it. */
export function fillMoveList(list, moves) {
  list.replaceChildren();
  let row = null;
  moves.forEach((m, i) => {
    if (!row || m.side === 'white') {
      row = el('li', {}, el('span', { class: 'label' }, m.label));
      list.append(row);
    }
    const last = i === moves.length - 1;
    row.append(el('span', { class: last ? 'move last' : 'move', 'data-index': i }, m.name));
  });
  list.scrollTop = list.scrollHeight;
}
