// A game: the board, a turn entered step by step (the piece, its destination, then each kick,
// with the squares possible at each step marked), the move list, and the game's buttons.
// The server checks every step; the page only shows what it is told is possible.
//
// A game of the lobby shows more: its players' names and clocks, whether the other player is
// here, the spectators, the link of its public page, the chat, and after the end a rematch. Its
// page follows the lobby game's events, which count it as its player's presence.

import { get, post, el } from './api.js';
import { Board } from './board.js';
import { whoAmI, onLobbyChange } from './header.js';
import { Seats, Chat, spectatorsText, timeControl, watchLink, openGame, fillMoveList } from './table.js';
import { rulesPanel } from './variant.js';

export function showGame(screen, id, key) {
  new GameScreen(screen, id, key).start();
}

class GameScreen {
  constructor(screen, id, key) {
    this.id = id;
    this.base = `/api/games/${id}/${key}`;
    this.flipKey = `kickoff-flip-${id}`;
    this.view = null; // the game as the server sees it
    this.partial = []; // the actions of the turn entered so far
    this.step = null; // what may follow them
    this.svg = '';
    this.selected = null; // the square of the piece chosen
    this.ballChosen = false; // the ball chosen, to be kicked
    this.choice = null; // several kicks reach one square: which kicker?
    this.threat = null; // the other side's scoring turn, as the server found it
    this.threatsKey = `kickoff-threats-${id}`;
    this.message = '';
    this.build(screen);
  }

  build(screen) {
    this.boardHost = el('div', { class: 'board', id: 'board' });
    this.board = new Board(this.boardHost, {
      onSquare: (square, from) => this.onSquare(square, from),
      canDrag: (square) => this.canDrag(square),
    });
    this.status = el('p', { class: 'status', id: 'status' });
    this.showThreats = el('input', { type: 'checkbox', id: 'show-threats',
      onchange: () => {
        localStorage.setItem(this.threatsKey, String(this.showThreats.checked));
        this.render();
      } });
    this.threatLine = el('p', { class: 'threat', id: 'threat', hidden: true });
    this.turnLine = el('p', { class: 'turn-so-far', id: 'turn-so-far' });
    this.choices = el('div', { class: 'choices', id: 'choices' });
    this.endTurn = el('button', { id: 'end-turn', class: 'primary', onclick: () => this.submit() }, 'End turn');
    this.nullTurn = el('button', { id: 'null-turn', onclick: () => this.playNull() }, 'Pass (null turn)');
    this.back = el('button', { id: 'step-back', onclick: () => this.stepBack() }, 'Take back a step');
    this.typed = el('input', { id: 'typed-turn', size: 16, placeholder: 'Nc3>e6', autocomplete: 'off',
      'aria-label': 'A turn in notation' });
    const typedForm = el('form', { class: 'typed', onsubmit: (e) => { e.preventDefault(); this.playTyped(); } },
      this.typed, el('button', { type: 'submit', id: 'play-typed' }, 'Play'));
    this.moves = el('ol', { class: 'moves', id: 'moves' });
    this.invite = el('div', { class: 'invite', id: 'invite', hidden: true });
    this.offer = el('div', { class: 'offer', id: 'offer', hidden: true });
    this.undoButton = el('button', { id: 'undo', onclick: () => this.undo() }, 'Undo');
    this.resignButton = el('button', { id: 'resign', onclick: () => this.resign() }, 'Resign');
    this.drawButton = el('button', { id: 'offer-draw', onclick: () => this.draw('offer') }, 'Offer a draw');
    this.download = el('a', { id: 'download', class: 'button', href: `${this.base}/record`, download: '' }, 'Download the record');
    this.title = el('h1', { id: 'title' });
    this.players = el('p', { class: 'players', id: 'players' });
    this.lobbyTop = el('div', { class: 'lobby-game', hidden: true });
    this.lobbyBottom = el('div', { class: 'lobby-game', hidden: true });
    this.rules = el('div', { class: 'rules-host' });
    screen.append(el('section', { class: 'game' },
      el('div', { class: 'left' }, this.boardHost),
      el('div', { class: 'right' },
        this.title, this.players, this.lobbyTop, this.status, this.invite, this.offer,
        this.entry = el('div', { class: 'entry' }, this.turnLine, this.choices,
          el('div', { class: 'buttons' }, this.endTurn, this.nullTurn, this.back), typedForm,
          el('label', { class: 'threats', title: 'Marks how the other side could score with its next turn' },
            this.showThreats, ' Show threats'),
          this.threatLine),
        this.moves,
        this.rules,
        el('div', { class: 'buttons' },
          this.undoButton,
          el('button', { id: 'flip', onclick: () => this.flip() }, 'Flip the board'),
          this.drawButton, this.resignButton, this.download),
        this.lobbyBottom)));
  }

  /** What a game of the lobby shows beside the board: made once, when the game is one. */
  async setUpLobby() {
    const me = await whoAmI();
    this.me = me.name;
    this.seats = new Seats();
    this.spectators = el('p', { class: 'spectators', id: 'spectators' });
    this.rematchButton = el('button', { id: 'rematch', class: 'primary', onclick: () => this.offerRematch() },
      'Offer a rematch');
    this.rematchText = el('span', { id: 'rematch-status' });
    this.rematchBox = el('div', { class: 'rematch buttons', id: 'rematch-box', hidden: true },
      this.rematchButton, this.rematchText);
    this.rematch = { mine: null, theirs: null, asked: false };
    this.chat = new Chat(this.id, me);
    this.lobbyTop.replaceChildren(this.seats.element, this.spectators, this.rematchBox);
    this.lobbyBottom.replaceChildren(watchLink(this.view.lobby.watch), this.chat.element);
    this.lobbyTop.hidden = false;
    this.lobbyBottom.hidden = false;
    if (me.name) onLobbyChange((myGames) => this.lobbyChanged(myGames));
  }

  get flipped() {
    const saved = localStorage.getItem(this.flipKey);
    if (saved !== null) return saved === 'true';
    return !!this.view && this.view.you.length === 1 && this.view.you[0] === 'black';
  }

  async start() {
    // A server too busy for now (or restarting) is asked again; a game it does not have is not.
    for (;;) {
      try {
        await this.load();
        break;
      } catch (e) {
        this.status.textContent = e.message;
        if (e.status === 404) return;
        await new Promise((resolve) => { setTimeout(resolve, 3000); });
      }
    }
    // The board is first asked for before the page knows which side its link plays: Black's
    // is drawn again from Black's side (or at the next change, if this fails).
    if (this.flipped !== this.board.flipped) await this.load().catch((e) => this.fail(e));
    if (this.view.lobby) {
      await this.setUpLobby();
      this.render();
    }
    // A lobby game's own stream counts this page as its player's presence.
    const events = new EventSource(this.view.lobby ? `/api/games/${this.id}/events` : `${this.base}/events`);
    events.addEventListener('update', (e) => {
      const version = Number(e.data);
      if (!this.view || version === this.view.version) return;
      // A lower version than the one shown: the server has restarted and counts afresh.
      this.load({ restarted: version < this.view.version }).catch((err) => this.fail(err));
    });
  }

  /**
   * Fetches the game, and starts the turn afresh when the game moved on; a change beside the
   * turn (a draw offered, the clocks, someone coming or going, a message) leaves the turn being
   * entered as it is.
   */
  async load({ restarted = false } = {}) {
    const before = this.view;
    if (!this.accept(await get(`${this.base}?flip=${this.flipped}`), restarted)) return;
    if (before && !restarted && sameTurn(before, this.view) && this.board.flipped === this.flipped) this.render();
    else this.reset();
  }

  /**
   * Shows a view of the game unless the one shown is newer: answers may arrive out of order
   * (a turn's answer after the view fetched when the engine replied to it). True when shown.
   */
  accept(view, restarted = false) {
    if (this.view && !restarted && view.version < this.view.version) return false;
    this.view = view;
    return true;
  }

  reset() {
    this.partial = [];
    this.step = this.view.step;
    this.threat = this.view.threat || null;
    this.svg = this.view.svg;
    this.selected = null;
    this.ballChosen = false;
    this.choice = null;
    this.render();
  }

  fail(error) {
    this.message = error.message;
    this.render();
  }

  render() {
    const v = this.view;
    this.title.textContent = v.title;
    if (!this.rules.firstChild) this.rules.append(rulesPanel(v.variant));
    const arranging = v.arranging
      ? ` · arrangement stage: ${v.arranging[0].length} White and ${v.arranging[1].length} Black pieces still to move once`
      : '';
    const hand = (h) => (h.to_place ? `${h.to_place} of ${h.pieces}` : 'nothing more');
    const placing = v.placing
      ? ` · placement stage: White places ${hand(v.placing[0])}, Black ${hand(v.placing[1])}`
      : '';
    const more = (v.setup ? ` · setup ${v.setup}` : '') + (v.keeps_score ? ` · score ${v.score[0]}–${v.score[1]}` : '') + arranging + placing;
    this.players.textContent = v.lobby
      ? timeControl(v.lobby.time_control) + more
      : `White: ${v.players[0]} · Black: ${v.players[1]}${more}`;
    if (v.lobby && this.seats) this.renderLobby();
    this.board.show(this.svg);
    this.showThreats.checked = this.threatsShown;
    this.markThreat();
    this.markSquares();
    this.status.textContent = this.statusText();
    this.status.classList.toggle('over', !!v.ending);
    const left = this.step && this.step.left ? this.step.left : '';
    if (this.step && this.step.name) {
      this.turnLine.textContent = `Your turn so far: ${this.step.name}${left ? ` (${left})` : ''}`;
    } else {
      this.turnLine.textContent = left ? `This turn: ${left}` : '';
    }
    this.renderChoices();
    const entering = !!this.step;
    this.entry.hidden = !entering;
    this.endTurn.disabled = !(entering && this.step.can_stop);
    this.nullTurn.hidden = !(entering && this.step.null_ok && this.partial.length === 0);
    this.back.disabled = this.partial.length === 0;
    this.typed.disabled = !entering;
    this.undoButton.disabled = !v.can_undo;
    this.undoButton.hidden = v.mode === 'remote';
    this.resignButton.disabled = !!v.ending || v.you.length === 0;
    this.drawButton.disabled = !!v.ending || v.thinking || v.draw_offer !== null;
    this.renderMoves();
    this.renderInvite();
    this.renderOffer();
  }

  statusText() {
    const v = this.view;
    if (this.message) {
      const m = this.message;
      this.message = '';
      return m;
    }
    if (v.ending) return `${v.ending.result}: ${v.ending.reason}.`;
    const side = v.to_move === 'white' ? 'White' : 'Black';
    if (v.thinking) return `${side} (the engine) is thinking…`;
    if (this.step) return v.mode === 'hotseat' ? `${side} to play.` : `Your turn (${side}).`;
    if (v.lobby) return `Waiting for ${v.lobby[v.to_move]} (${side})…`;
    if (v.mode === 'remote') return `Waiting for ${side}…`;
    return `${side} to play.`;
  }

  /** Threats are shown when asked for; unless asked, in games against the engine. */
  get threatsShown() {
    const saved = localStorage.getItem(this.threatsKey);
    if (saved !== null) return saved === 'true';
    return !!this.view && this.view.mode === 'engine';
  }

  /**
   * The other side's scoring turn, marked on the board and said in words: the squares it
   * touches and its arrows.
   */
  markThreat() {
    this.board.clear();
    const t = this.threat;
    const shown = !!this.step && this.threatsShown && !!t;
    this.threatLine.hidden = !shown;
    if (!shown) return;
    const side = t.side === 'white' ? 'White' : 'Black';
    const after = this.partial.length ? 'after your turn so far, ' : '';
    if (!t.known) {
      this.threatLine.textContent = `Threats: ${side}'s turns are too many to look through here.`;
    } else if (t.turn) {
      this.threatLine.textContent = `Threat: ${after}${side} could score next turn with ${t.turn.name}.`;
      this.board.mark(t.turn.squares, 'threat');
      for (const a of t.turn.arrows) this.board.arrow(a.from, a.to, `threat-${a.kind}`);
    } else {
      this.threatLine.textContent = `No threat: ${after}${side} cannot score next turn.`;
    }
    this.threatLine.classList.toggle('danger', !!(t.known && t.turn));
  }

  /** The squares the entered turn may go on with, marked on the board. */
  markSquares() {
    if (!this.step) return;
    const moves = this.step.next.filter((n) => n.action.type === 'move' && n.action.kind !== 'drop');
    const kicks = this.step.next.filter((n) => n.action.type === 'kick');
    // A placement: the empty squares a piece of the hand may be placed on.
    this.board.mark(unique(this.step.next.filter(isDrop).map((n) => n.action.to)), 'target');
    const actors = new Set([...moves.map((n) => n.action.from), ...kicks.map((n) => n.action.kicker)]);
    this.board.mark([...actors], 'movable');
    this.board.mark(unique(kicks.map((n) => n.action.to)), 'kick');
    if (this.ballChosen) this.board.mark([this.ballSquare()], 'selected');
    if (this.selected) {
      this.board.mark([this.selected], 'selected');
      const own = moves.filter((n) => n.action.from === this.selected).map((n) => n.action.to);
      this.board.mark(unique(own), 'target');
    }
  }

  renderChoices() {
    this.choices.replaceChildren();
    if (!this.choice) return;
    this.choices.append(el('span', {}, this.choice.question + ' '),
      ...this.choice.options.map((n) => el('button', { class: 'option', onclick: () => this.apply(n) },
        n.promotes_to || n.places ? `${n.promotes_to || n.places} (${n.name})` : n.name)));
  }

  renderMoves() {
    fillMoveList(this.moves, this.view.moves);
  }

  /** The players and their clocks, the spectators, the chat, the rematch. */
  renderLobby() {
    const v = this.view;
    const over = !!v.ending;
    this.seats.order(this.flipped ? 'black' : 'white');
    this.seats.show(v.lobby, v.to_move, over);
    this.spectators.textContent = spectatorsText(v.lobby.spectators);
    this.chat.refresh(v.lobby.chat);
    this.rematchBox.hidden = !over || v.you.length === 0;
    const r = this.rematch;
    const other = v.lobby[v.you[0] === 'white' ? 'black' : 'white'];
    if (r.theirs) {
      this.rematchButton.textContent = 'Accept the rematch';
      this.rematchButton.disabled = false;
      this.rematchText.textContent = `${other} offers a rematch.`;
    } else if (r.mine) {
      this.rematchButton.textContent = 'Offer a rematch';
      this.rematchButton.disabled = true;
      this.rematchText.textContent = `Rematch offered to ${other}.`;
    } else {
      this.rematchButton.textContent = 'Offer a rematch';
      this.rematchButton.disabled = false;
      this.rematchText.textContent = '';
    }
    if (over && !r.asked && this.me) {
      // The first look at the offers once the game is over; lobby events bring the others.
      r.asked = true;
      this.lobbyChanged(null).catch(() => { r.asked = false; });
    }
  }

  /** The lobby changed: a rematch offered, or made (then it opens). */
  async lobbyChanged(myGames) {
    if (!this.view.ending) return;
    const next = (myGames || []).find((g) => g.rematch_of === this.id && !g.result);
    if (next) {
      openGame(next.id);
      return;
    }
    const seeks = await get('/api/seeks');
    const offers = seeks.filter((s) => s.rematch_of === this.id);
    this.rematch.mine = offers.find((s) => s.user === this.me) || null;
    this.rematch.theirs = offers.find((s) => s.user !== this.me) || null;
    this.render();
  }

  async offerRematch() {
    try {
      const answer = await post(`/api/games/${this.id}/rematch`);
      if (answer.game) {
        openGame(answer.game);
        return;
      }
      this.rematch.mine = { id: answer.seek };
      this.render();
    } catch (e) {
      this.fail(e);
    }
  }

  renderInvite() {
    const link = this.view.invite;
    this.invite.hidden = !link;
    if (!link) return;
    const url = new URL(link, location.href).href;
    this.invite.replaceChildren(el('p', {}, 'Send this link to your opponent:'),
      el('input', { id: 'invite-link', readonly: true, value: url, size: 60,
        onfocus: (e) => e.target.select() }));
  }

  renderOffer() {
    const v = this.view;
    const toMe = v.draw_offer && (v.mode === 'hotseat' || !v.you.includes(v.draw_offer));
    this.offer.hidden = !v.draw_offer;
    if (!v.draw_offer) return;
    const who = v.draw_offer === 'white' ? 'White' : 'Black';
    this.offer.replaceChildren(el('span', {}, `${who} offers a draw. `),
      toMe ? el('button', { id: 'accept-draw', onclick: () => this.draw('accept') }, 'Accept') : null,
      toMe ? el('button', { id: 'decline-draw', onclick: () => this.draw('decline') }, 'Decline') : null);
  }

  canDrag(square) {
    if (!this.step) return false;
    return this.step.next.some((n) => !isDrop(n) && (n.action.from === square || n.action.kicker === square)) ||
      this.ballSquare() === square;
  }

  ballSquare() {
    const ball = this.board.svg && this.board.svg.querySelector('.ball');
    return ball ? ball.dataset.square : null;
  }

  /**
   * A click on a square, or a drag from `from` to it. A click on a piece that may act selects
   * it, and nothing else: where the ball could also be kicked to its square, the kick is offered
   * beside the board (and reached by the ball, clicked or dragged, then the square). A turn is
   * only ever played by its last step or by "End turn".
   */
  onSquare(square, from) {
    if (!this.step) return;
    this.choice = null;
    const next = this.step.next;
    // A square a piece of the hand may be placed on: placed, or which piece asked.
    const drops = next.filter((n) => isDrop(n) && n.action.to === square);
    if (drops.length === 1) return this.apply(drops[0]);
    if (drops.length > 1) return this.ask(`Place which piece on ${square}?`, drops);
    const ball = this.ballSquare();
    const acts = (at) => next.some((n) => n.action.from === at || n.action.kicker === at);
    const kicks = next.filter((n) => n.action.type === 'kick' && n.action.to === square);
    if (from) {
      // A drag names both ends: the ball dragged is kicked, a piece dragged acts.
      this.ballChosen = from === ball && (kicks.length > 0 || !acts(from));
      this.selected = this.ballChosen ? null : from;
    }
    const ballWasChosen = this.ballChosen;
    this.ballChosen = false;
    if (ballWasChosen) {
      if (kicks.length === 1) return this.apply(kicks[0]);
      if (kicks.length > 1) return this.ask('Which piece kicks?', kicks);
    } else if (this.selected && this.selected !== square) {
      const own = next.filter((n) => (n.action.from === this.selected || n.action.kicker === this.selected)
        && n.action.to === square);
      if (own.length === 1) return this.apply(own[0]);
      if (own.length > 1 && own.every((n) => n.promotes_to)) return this.ask('Promote to which piece?', own);
      if (own.length > 1) return this.ask('Which one?', own);
    }
    // A square the ball may be kicked to, with no piece of the turn on it: the click kicks.
    if (kicks.length && !acts(square)) {
      this.selected = null;
      if (kicks.length === 1) return this.apply(kicks[0]);
      return this.ask('Which piece kicks?', kicks);
    }
    // The ball on a square of its own, to be kicked: chosen, then the square it goes to.
    if (square === ball && !acts(square) && next.some((n) => n.action.type === 'kick')) {
      this.ballChosen = !from && !ballWasChosen;
      this.selected = null;
      this.render();
      return undefined;
    }
    this.selected = acts(square) && this.selected !== square ? square : null;
    // The piece is selected; a kick to its square stays one click away.
    if (this.selected && kicks.length) {
      this.choice = { question: `Or kick the ball to ${square}:`, options: kicks };
    }
    this.render();
    return undefined;
  }

  ask(question, options) {
    this.choice = { question, options };
    this.render();
  }

  /** Adds an action to the turn and asks what may follow. */
  async apply(next) {
    this.choice = null;
    this.selected = null;
    this.ballChosen = false;
    this.partial.push(next.action);
    try {
      const answer = await post(`${this.base}/step`, { actions: this.partial, flip: this.flipped });
      this.svg = answer.svg;
      this.step = answer.step;
      this.threat = answer.threat || null;
    } catch (e) {
      this.partial.pop();
      return this.fail(e);
    }
    if (this.step.next.length === 0 && this.step.can_stop) return this.submit();
    this.render();
    return undefined;
  }

  async stepBack() {
    this.partial.pop();
    this.selected = null;
    this.ballChosen = false;
    this.choice = null;
    try {
      const answer = await post(`${this.base}/step`, { actions: this.partial, flip: this.flipped });
      this.svg = answer.svg;
      this.step = answer.step;
      this.threat = answer.threat || null;
      this.render();
    } catch (e) {
      this.fail(e);
    }
  }

  async submit() {
    await this.send('play', { actions: this.partial, flip: this.flipped });
  }

  async playNull() {
    await this.send('play', { actions: [], flip: this.flipped });
  }

  async playTyped() {
    const text = this.typed.value.trim();
    if (!text) return;
    if (await this.send('play', { text, flip: this.flipped })) this.typed.value = '';
  }

  async undo() {
    await this.send(`undo?flip=${this.flipped}`, {});
  }

  /**
   * Sends a request that answers with the game; true when it was done. When the game's stream
   * brought the same version first, the turn was started afresh then, and what has been entered
   * since (a square chosen, a question asked) stays.
   */
  async send(path, body) {
    try {
      const answer = await post(`${this.base}/${path}`, body);
      const before = this.view;
      if (!this.accept(answer)) return true;
      if (before && before.version === answer.version && sameTurn(before, answer)) this.render();
      else this.reset();
      return true;
    } catch (e) {
      this.fail(e);
      return false;
    }
  }

  async resign() {
    if (this.resignButton.dataset.confirm !== 'yes') {
      this.resignButton.dataset.confirm = 'yes';
      this.resignButton.textContent = 'Really resign?';
      setTimeout(() => {
        this.resignButton.dataset.confirm = '';
        this.resignButton.textContent = 'Resign';
      }, 4000);
      return;
    }
    this.resignButton.dataset.confirm = '';
    this.resignButton.textContent = 'Resign';
    await this.send('resign', {});
  }

  async draw(action) {
    try {
      const answer = await post(`${this.base}/draw`, { action });
      if (answer.status === 'declined' && action === 'offer') this.message = 'The engine declines the draw.';
      await this.load();
    } catch (e) {
      this.fail(e);
    }
  }

  async flip() {
    localStorage.setItem(this.flipKey, String(!this.flipped));
    try {
      const answer = await post(`${this.base}/step`, { actions: this.partial, flip: this.flipped })
        .catch(() => null);
      if (answer) {
        this.svg = answer.svg;
      } else if (this.accept(await get(`${this.base}?flip=${this.flipped}`))) {
        this.svg = this.view.svg;
      }
      this.render();
    } catch (e) {
      this.fail(e);
    }
  }
}

/** Whether two views of a game are at the same turn (the turn being entered stays). */
function sameTurn(a, b) {
  return a.moves.length === b.moves.length && !!a.ending === !!b.ending && a.thinking === b.thinking
    && !!a.step === !!b.step && a.to_move === b.to_move;
}

/** Whether a possible action places a piece from the hand. */
function isDrop(n) {
  return n.action.type === 'move' && n.action.kind === 'drop';
}

function unique(list) {
  return [...new Set(list)];
}
