// The lobby: seek a game (a shipped or published variant, its setup, a colour, a live or
// correspondence clock) or challenge a player by name; the open seeks and the challenges to
// accept, cancel or decline; the account's games, those where it is its turn first; and the games
// in progress to watch. Everything follows the lobby's events. Accepting a seek opens the game,
// and so does a seek of one's own that someone accepts.

import { get, post, del, el } from './api.js';
import { whoAmI, onLobbyChange } from './header.js';
import { openGame, timeControl } from './table.js';
import { variantPage } from './variant.js';

export async function showLobby(screen) {
  const [me, variants] = await Promise.all([whoAmI(), get('/api/variants')]);
  const published = await publishedVariants(me);
  new Lobby(screen, me, variants.concat(published)).start();
}

/**
 * The published variants a seek may offer: the account's own and the gallery's first page, each
 * by its newest version (`HASH.toml`), which the game keeps.
 */
async function publishedVariants(me) {
  const lists = await Promise.all([
    me.name ? get('/api/my/variants').catch(() => []) : [],
    get('/api/gallery').then((page) => page.variants).catch(() => []),
  ]);
  const seen = new Set();
  const found = [];
  for (const v of lists.flat()) {
    if (seen.has(v.version)) continue;
    seen.add(v.version);
    found.push({ name: v.version, title: `${v.title} (${v.owner}/${v.name})`, published: true,
      random_setup: false });
  }
  return found;
}

const COLOURS = { white: 'White', black: 'Black', random: 'a colour drawn' };

class Lobby {
  constructor(screen, me, variants) {
    this.me = me;
    this.variants = variants;
    this.known = null; // the ids of the account's games in progress, once read
    this.error = el('p', { class: 'error', id: 'lobby-error', hidden: true });
    this.challenges = el('ul', { class: 'lobby-list', id: 'challenges' });
    this.seeks = el('ul', { class: 'lobby-list', id: 'seeks' });
    this.mine = el('ul', { class: 'lobby-list', id: 'my-games' });
    this.live = el('ul', { class: 'lobby-list', id: 'live-games' });
    this.challengesBox = el('section', { hidden: true }, el('h2', {}, 'Challenges'), this.challenges);
    this.mineBox = el('section', { hidden: !me.name }, el('h2', {}, 'My games'), this.mine);
    screen.append(el('section', { class: 'lobby' },
      el('div', { class: 'lobby-left' },
        el('h1', {}, 'The lobby'),
        me.name ? this.seekForm() : el('p', { class: 'hint', id: 'lobby-sign-in' },
          'Sign in or sign up (at the top right) to seek a game, accept one or challenge a player. ',
          'Anyone can watch the games in progress.'),
        this.error, this.challengesBox,
        el('section', {}, el('h2', {}, 'Open seeks'), this.seeks)),
      el('div', { class: 'lobby-right' },
        this.mineBox,
        el('section', {}, el('h2', {}, 'Games to watch'), this.live))));
  }

  start() {
    onLobbyChange((myGames) => this.refresh(myGames));
  }

  seekForm() {
    // A variant's page sends here with the variant chosen (`/lobby?variant=NAME`).
    const asked = new URLSearchParams(location.search).get('variant');
    const variant = el('select', { id: 'seek-variant' },
      this.variants.map((v) => el('option', { value: v.name, selected: v.name === asked },
        v.published ? `${v.title}, published` : `${v.title} (${v.name})`)));
    const variantLink = el('a', { id: 'seek-variant-page', class: 'variant-link' }, 'its rules');
    const setup = el('select', { id: 'seek-setup' },
      el('option', { value: 'random' }, 'random'),
      el('option', { value: 'fair' }, 'fair (no goal forced within two turns)'),
      el('option', { value: 'number' }, 'number…'));
    const number = el('input', { id: 'seek-setup-number', size: 10, hidden: true, 'aria-label': 'Setup number' });
    const setupBox = el('label', {}, 'Setup: ', setup, ' ', number);
    const colour = el('select', { id: 'seek-color' },
      el('option', { value: 'random' }, 'drawn at random'),
      el('option', { value: 'white' }, 'White'),
      el('option', { value: 'black' }, 'Black'));
    const kind = (value, text, checked) => el('input', { type: 'radio', name: 'seek-kind', value, checked,
      id: `seek-${value}`, 'aria-label': text });
    const live = kind('live', 'Live', true);
    const correspondence = kind('correspondence', 'Correspondence', false);
    const minutes = el('input', { id: 'seek-minutes', type: 'number', min: 0, max: 180, value: 5, size: 4, 'aria-label': 'Minutes' });
    const seconds = el('input', { id: 'seek-seconds', type: 'number', min: 0, max: 59, value: 0, size: 3, 'aria-label': 'Seconds' });
    const increment = el('input', { id: 'seek-increment', type: 'number', min: 0, max: 180, value: 3, size: 4, 'aria-label': 'Increment in seconds' });
    const days = el('input', { id: 'seek-days', type: 'number', min: 1, max: 14, value: 3, size: 3, 'aria-label': 'Days a turn' });
    const to = el('input', { id: 'seek-to', size: 16, autocomplete: 'off', placeholder: 'anyone',
      'aria-label': 'The player to challenge' });
    const submit = el('button', { type: 'submit', id: 'seek-submit', class: 'primary' }, 'Seek a game');
    const problem = el('p', { class: 'error', id: 'seek-error', hidden: true });
    const done = el('p', { class: 'hint', id: 'seek-done', hidden: true });

    const sync = () => {
      const chosen = this.variants.find((v) => v.name === variant.value);
      setupBox.hidden = !(chosen && chosen.random_setup);
      variantLink.href = variantPage(variant.value);
      number.hidden = setup.value !== 'number';
      const name = to.value.trim();
      submit.textContent = name ? `Challenge ${name}` : 'Seek a game';
    };
    for (const input of [variant, setup, to]) input.addEventListener('input', sync);
    variant.addEventListener('change', sync);
    setup.addEventListener('change', sync);
    sync();

    const send = async (event) => {
      event.preventDefault();
      problem.hidden = true;
      done.hidden = true;
      const request = { variant: variant.value, color: colour.value };
      if (live.checked) {
        request.clock = { initial: Number(minutes.value || 0) * 60 + Number(seconds.value || 0),
          increment: Number(increment.value || 0) };
      } else {
        request.clock = { days: Number(days.value || 0) };
      }
      if (!setupBox.hidden) request.setup = setup.value === 'number' ? number.value.trim() : setup.value;
      const name = to.value.trim();
      if (name) request.to = name;
      submit.disabled = true;
      try {
        await post('/api/seeks', request);
        done.textContent = name ? `${name} is challenged: the game starts when they accept.`
          : 'Your seek is open: the game starts when someone accepts it.';
        done.hidden = false;
      } catch (e) {
        problem.textContent = e.message;
        problem.hidden = false;
      } finally {
        submit.disabled = false;
      }
    };

    return el('form', { class: 'seek', id: 'seek-form', onsubmit: send },
      el('h2', {}, 'Seek a game'),
      el('label', {}, 'Variant: ', variant), ' ', variantLink, setupBox,
      el('label', {}, 'You play: ', colour),
      el('fieldset', {}, el('legend', {}, 'Time'),
        el('label', { class: 'choice' }, live, ' Live: ', minutes, ' min ', seconds, ' s, and ', increment,
          ' s more after each turn'),
        el('label', { class: 'choice' }, correspondence, ' Correspondence: ', days, ' days a turn')),
      el('label', {}, 'Against: ', to, el('span', { class: 'hint' }, ' (a player\'s name, or anyone)')),
      el('div', { class: 'buttons' }, submit), problem, done);
  }

  async refresh(myGames) {
    let seeks;
    let live;
    try {
      [seeks, live] = await Promise.all([get('/api/seeks'), get('/api/games')]);
      this.error.hidden = true;
    } catch (e) {
      this.error.textContent = e.message;
      this.error.hidden = false;
      return;
    }
    // A game of the account's that was not there before (its seek accepted, a challenge or a
    // rematch taken) opens at once.
    const going = myGames.filter((g) => !g.result);
    if (this.known) {
      const fresh = going.find((g) => !this.known.has(g.id) && g.turns === 0);
      if (fresh) {
        openGame(fresh.id);
        return;
      }
    }
    this.known = new Set(going.map((g) => g.id));
    const name = this.me.name;
    const challenges = seeks.filter((s) => s.to && (s.to === name || s.user === name));
    const open = seeks.filter((s) => !s.to);
    this.challengesBox.hidden = challenges.length === 0;
    this.challenges.replaceChildren(...challenges.map((s) => this.seekItem(s)));
    this.seeks.replaceChildren(...open.map((s) => this.seekItem(s)));
    if (open.length === 0) this.seeks.append(el('li', { class: 'hint' }, 'No one is seeking a game now.'));
    this.mine.replaceChildren(...myGames.slice(0, 30).map((g) => this.gameItem(g, true)));
    if (myGames.length === 0) this.mine.append(el('li', { class: 'hint' }, 'No games yet.'));
    this.live.replaceChildren(...live.map((g) => this.gameItem(g, false)));
    if (live.length === 0) this.live.append(el('li', { class: 'hint' }, 'No game is being played now.'));
  }

  /** A variant's title: as the lobby's list of variants gives it, else as the server gave it
   *  (`title`, a published version's), else its name. */
  variantTitle(name, title) {
    const v = this.variants.find((x) => x.name === name);
    return v ? v.title : (title || name);
  }

  /** The variant's title as a link to its page. */
  variantLink(name, title) {
    return el('a', { class: 'variant-link', href: variantPage(name) }, this.variantTitle(name, title));
  }

  seekItem(seek) {
    const name = this.me.name;
    const mine = seek.user === name;
    const colour = seek.color === 'random' ? 'colours drawn'
      : `${seek.user} plays ${COLOURS[seek.color]}`;
    const what = [timeControl(seek.clock), colour,
      seek.setup ? `setup ${seek.setup}` : null, seek.rematch_of ? 'a rematch' : null].filter(Boolean).join(' · ');
    let who;
    if (seek.to && mine) who = el('span', {}, 'You challenge ', el('strong', { class: 'user' }, seek.to));
    else if (seek.to) who = el('span', {}, el('strong', { class: 'user' }, seek.user), ' challenges you');
    else who = el('strong', { class: 'user' }, seek.user);
    const buttons = [];
    if (mine) {
      buttons.push(el('button', { class: 'cancel', onclick: () => this.remove(seek) }, 'Cancel'));
    } else if (name) {
      buttons.push(el('button', { class: 'accept primary', onclick: () => this.accept(seek) }, 'Accept'));
      if (seek.to) buttons.push(el('button', { class: 'decline', onclick: () => this.remove(seek) }, 'Decline'));
    }
    return el('li', { class: 'seek-item', 'data-id': seek.id, 'data-user': seek.user },
      el('div', { class: 'info' }, el('div', {}, who),
        el('div', { class: 'what' }, this.variantLink(seek.variant, seek.title), ' · ', what)),
      el('div', { class: 'buttons' }, buttons));
  }

  gameItem(game, mine) {
    const name = this.me.name;
    const players = el('span', { class: 'names' },
      el('strong', { class: 'user' }, game.white), ' – ', el('strong', { class: 'user' }, game.black));
    let state;
    if (game.result) state = `${game.result} (${game.termination || 'over'})`;
    else if (mine && game.your_turn) state = 'your turn';
    else state = `${game[game.to_move]} to play`;
    const turns = `${game.turns} ${game.turns === 1 ? 'turn' : 'turns'}`;
    const stateEl = el('span', { class: game.your_turn ? 'state your-turn' : 'state' }, state);
    const what = el('div', { class: 'what' }, this.variantLink(game.variant),
      ` · ${timeControl(game.time_control)} · ${turns}`);
    const open = el('a', { class: 'button open', href: `/watch/${game.id}`,
      onclick: (e) => { if (mine && name) { e.preventDefault(); openGame(game.id); } } },
    mine ? (game.result ? 'Open' : 'Play') : 'Watch');
    return el('li', { class: mine ? 'game-item mine' : 'game-item', 'data-id': game.id },
      el('div', { class: 'info' }, el('div', {}, players, ' · ', stateEl), what),
      el('div', { class: 'buttons' }, open));
  }

  async accept(seek) {
    try {
      const made = await post(`/api/seeks/${seek.id}/accept`);
      await openGame(made.game);
    } catch (e) {
      this.error.textContent = e.message;
      this.error.hidden = false;
    }
  }

  async remove(seek) {
    try {
      await del(`/api/seeks/${seek.id}`);
    } catch (e) {
      this.error.textContent = e.message;
      this.error.hidden = false;
    }
  }
}
