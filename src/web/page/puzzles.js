// Puzzles: /puzzles lists the sets kickoff ships; /puzzles/VARIANT#N plays puzzle N of a set.
// The player types each turn; the server checks it and answers with the best defence, so
// that a puzzle is solved only by a line that forces the goal against every defence.

import { get, post, el } from './api.js';
import { variantPage } from './variant.js';

export async function showPuzzleSets(screen) {
  let sets;
  try {
    sets = await get('/api/puzzles');
  } catch (e) {
    screen.append(el('p', { class: 'error' }, e.message));
    return;
  }
  const turns = (s) => s.turns.map(([k, n]) => `${n} goals in ${k}`).join(', ');
  screen.append(el('section', { class: 'puzzle-sets' },
    el('h1', {}, 'Puzzles'),
    el('p', {}, 'Each puzzle is a position where the side to move forces a goal in a few turns, '
      + 'and only one first turn does it. The solver proved each one; the board defends as well '
      + 'as it can.'),
    el('ul', { id: 'puzzle-sets' }, sets.map((s) => el('li', { 'data-variant': s.variant },
      el('a', { href: `/puzzles/${encodeURIComponent(s.variant)}#1` }, s.title),
      ` (${s.variant}): ${s.count} puzzles, ${turns(s)}. `,
      el('a', { href: variantPage(s.variant) }, 'The rules.'))))));
}

export function showPuzzles(screen, variant) {
  const view = new PuzzleScreen(screen, variant);
  const number = () => Math.max(1, Number.parseInt(location.hash.slice(1), 10) || 1);
  const onHash = () => view.load(number());
  window.addEventListener('hashchange', onHash);
  view.load(number());
}

class PuzzleScreen {
  constructor(screen, variant) {
    this.variant = variant;
    this.line = [];
    this.title = el('h1', { id: 'puzzle-title' });
    this.task = el('p', { id: 'puzzle-task' });
    this.board = el('div', { class: 'board puzzle-board', id: 'board' });
    this.moves = el('ol', { class: 'puzzle-line', id: 'puzzle-line' });
    this.message = el('p', { class: 'status', id: 'puzzle-message', 'aria-live': 'polite' });
    this.input = el('input', { id: 'puzzle-turn', type: 'text', autocomplete: 'off', spellcheck: 'false',
      placeholder: 'your turn, e.g. Nc3>e6', 'aria-label': 'Your turn' });
    this.answer = el('p', { id: 'puzzle-answer', hidden: true });
    this.fen = el('code', { id: 'puzzle-fen' });
    this.previous = el('a', { id: 'puzzle-previous', class: 'button' }, 'Previous');
    this.next = el('a', { id: 'puzzle-next', class: 'button' }, 'Next puzzle');
    const form = el('form', { class: 'typed', onsubmit: (e) => { e.preventDefault(); this.play(); } },
      this.input, el('button', { id: 'puzzle-play', type: 'submit', class: 'primary' }, 'Play'));
    screen.append(el('section', { class: 'game puzzle' },
      el('div', { class: 'left' }, this.board),
      el('div', { class: 'right' },
        this.title, this.task, this.moves, this.message, form,
        el('div', { class: 'buttons' },
          el('button', { id: 'puzzle-reset', onclick: () => this.reset() }, 'Start again'),
          el('button', { id: 'puzzle-show', onclick: () => { this.answer.hidden = false; } }, 'Show the answer'),
          this.previous, this.next),
        this.answer,
        el('p', { class: 'fen' }, 'Position: ', this.fen),
        el('p', {}, el('a', { href: '/puzzles' }, 'All the puzzles.'), ' ',
          el('a', { href: variantPage(variant) }, 'The rules of this variant.')))));
  }

  async load(number) {
    this.number = number;
    try {
      this.puzzle = await get(`/api/puzzles/${encodeURIComponent(this.variant)}/${number}`);
    } catch (e) {
      this.title.textContent = 'No such puzzle';
      this.message.textContent = e.message;
      return;
    }
    const p = this.puzzle;
    this.title.textContent = `${p.title}: puzzle ${p.number} of ${p.count}`;
    const side = p.side === 'white' ? 'White' : 'Black';
    this.task.textContent = `${side} to play and score within ${p.turns} turn${p.turns === 1 ? '' : 's'} (${p.grade}).`;
    this.answer.textContent = `The first turn: ${p.answer}`;
    const link = (n) => `/puzzles/${encodeURIComponent(this.variant)}#${n}`;
    this.previous.hidden = p.number <= 1;
    this.previous.href = link(p.number - 1);
    this.next.hidden = p.number >= p.count;
    this.next.href = link(p.number + 1);
    this.reset();
  }

  reset() {
    this.line = [];
    this.answer.hidden = true;
    this.draw(this.puzzle.svg);
    this.fen.textContent = this.puzzle.fen;
    this.renderLine();
    this.message.textContent = '';
    this.message.classList.remove('over');
    this.input.disabled = false;
    this.input.value = '';
  }

  draw(svg) {
    // The server's drawing: its only texts (labels) are escaped by the server.
    this.board.innerHTML = svg;
  }

  renderLine() {
    // One item a turn of the player's, with the board's answer after it.
    const pairs = [];
    for (let i = 0; i < this.line.length; i += 2) {
      pairs.push(el('li', {}, el('span', { class: 'mine' }, this.line[i]),
        this.line[i + 1] ? [' ', el('span', { class: 'reply' }, this.line[i + 1])] : null));
    }
    this.moves.replaceChildren(...pairs);
    this.moves.dataset.turns = String(this.line.length);
  }

  async play() {
    const typed = this.input.value.trim();
    if (!typed) return;
    this.message.textContent = 'Checking…';
    let answer;
    try {
      answer = await post(`/api/puzzles/${encodeURIComponent(this.variant)}/${this.number}/try`,
        { line: [...this.line, typed] });
    } catch (e) {
      this.message.textContent = e.message;
      return;
    }
    this.line = answer.line;
    this.draw(answer.svg);
    this.fen.textContent = answer.fen;
    this.renderLine();
    this.message.textContent = answer.message;
    this.message.dataset.verdict = answer.verdict;
    this.input.value = '';
    if (answer.verdict === 'solved') {
      this.message.classList.add('over');
      this.input.disabled = true;
    }
  }
}
