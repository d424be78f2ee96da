// A game of the lobby's public page: anyone follows it live (the board, the move list, the
// players and their clocks, who is here, the spectators, the result) and reads its chat; a
// signed-in account writes in it. A player who opens it is sent on to their own link.

import { get, el } from './api.js';
import { Board } from './board.js';
import { whoAmI } from './header.js';
import { Seats, Chat, spectatorsText, timeControl, watchLink, fillMoveList } from './table.js';
import { rulesPanel } from './variant.js';

export async function showWatch(screen, id) {
  let view;
  const problem = el('p', { class: 'error', id: 'status' });
  // A server too busy for now (or restarting) is asked again; a game it does not have is not.
  while (!view) {
    try {
      view = await get(`/api/games/${id}`);
    } catch (e) {
      problem.replaceChildren(e.status === 404 ? 'There is no such game.' : e.message, ' ',
        el('a', { href: '/lobby' }, 'The lobby.'));
      screen.replaceChildren(problem);
      if (e.status === 404) return;
      await new Promise((resolve) => { setTimeout(resolve, 3000); });
    }
  }
  screen.replaceChildren();
  if (view.key) {
    location.replace(`/play/${id}/${view.key}`);
    return;
  }
  const me = await whoAmI();
  new WatchScreen(screen, id, me).start(view);
}

class WatchScreen {
  constructor(screen, id, me) {
    this.id = id;
    this.view = null;
    this.flipped = false;
    this.boardHost = el('div', { class: 'board', id: 'board' });
    this.board = new Board(this.boardHost, { onSquare: () => {}, canDrag: () => false });
    this.title = el('h1', { id: 'title' });
    this.about = el('p', { class: 'players', id: 'players' });
    this.seats = new Seats();
    this.status = el('p', { class: 'status', id: 'status' });
    this.spectators = el('p', { class: 'spectators', id: 'spectators' });
    this.moves = el('ol', { class: 'moves', id: 'moves' });
    this.chat = new Chat(id, me);
    this.link = el('div');
    this.rules = el('div', { class: 'rules-host' });
    screen.append(el('section', { class: 'game watch' },
      el('div', { class: 'left' }, this.boardHost),
      el('div', { class: 'right' },
        this.title, this.about, this.seats.element, this.status, this.spectators, this.moves,
        el('div', { class: 'buttons' },
          el('button', { id: 'flip', onclick: () => this.flip() }, 'Flip the board')),
        this.link, this.rules, this.chat.element)));
  }

  start(view) {
    this.rules.append(rulesPanel(view.variant));
    this.show(view);
    this.link.replaceChildren(watchLink(view.watch));
    const events = new EventSource(`/api/games/${this.id}/events`);
    events.addEventListener('update', (e) => {
      const version = Number(e.data);
      if (this.view && version === this.view.version) return;
      this.load().catch((err) => { this.status.textContent = err.message; });
    });
  }

  async load() {
    this.show(await get(`/api/games/${this.id}?flip=${this.flipped}`), true);
  }

  /** Shows a view of the game; one older than the one shown is left (answers may cross). */
  show(view, fetched = false) {
    if (this.view && fetched && view.version < this.view.version) return;
    this.view = view;
    const over = !!view.result;
    this.title.textContent = view.title;
    this.about.textContent = [timeControl(view.time_control), view.setup ? `setup ${view.setup}` : null,
      view.score ? `score ${view.score[0]}–${view.score[1]}` : null].filter(Boolean).join(' · ');
    this.seats.order(this.flipped ? 'black' : 'white');
    this.seats.show(view, view.to_move, over);
    this.status.classList.toggle('over', over);
    const mover = view.to_move === 'white' ? 'White' : 'Black';
    this.status.textContent = over ? `${view.result}: ${view.ending}.` : `${view[view.to_move]} (${mover}) to play.`;
    this.spectators.textContent = spectatorsText(view.spectators);
    this.board.show(view.svg);
    this.renderMoves();
    this.chat.refresh(view.chat);
  }

  renderMoves() {
    fillMoveList(this.moves, this.view.moves);
  }

  async flip() {
    this.flipped = !this.flipped;
    try {
      await this.load();
    } catch (e) {
      this.status.textContent = e.message;
    }
  }
}
