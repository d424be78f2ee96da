// Opening a record (a file, or pasted text) and stepping through it with the board.

import { post, el, readFile } from './api.js';
import { Board } from './board.js';

export function showRecords(screen) {
  const text = el('textarea', { id: 'record', rows: 10, spellcheck: 'false',
    placeholder: '[Variant "boyer-1951"]\n\n1. Bd4>g7 Ba3 2. Bh6>e9# 1-0' });
  const file = el('input', { id: 'record-file', type: 'file', accept: '.txt,.pgn,text/plain' });
  const definition = el('textarea', { id: 'record-definition', rows: 6, spellcheck: 'false',
    placeholder: 'Only for a variant that is not shipped: its definition (TOML).' });
  const problems = el('div', { class: 'problems', id: 'record-problems' });
  const viewer = el('div', { class: 'viewer', id: 'viewer' });
  file.addEventListener('change', async () => {
    const t = await readFile(file);
    if (t !== null) text.value = t;
  });
  const open = async (event) => {
    event.preventDefault();
    problems.replaceChildren();
    const request = { record: text.value };
    if (definition.value.trim()) request.definition = definition.value;
    try {
      const record = await post('/api/records/open', request);
      new Viewer(viewer, record, request.definition).show(record.plies.length);
    } catch (e) {
      problems.append(el('p', { class: 'error' }, e.message));
    }
  };
  // A link may carry a record (and its definition) in its fragment, which is never sent to the
  // server: `/records#record=...&definition=...`, as `kickoff analyze --format html` writes.
  const given = new URLSearchParams(location.hash.slice(1));
  if (given.has('record')) {
    text.value = given.get('record');
    if (given.has('definition')) definition.value = given.get('definition');
  }
  screen.append(el('section', { class: 'records' },
    el('form', { class: 'open', onsubmit: open },
      el('h1', {}, 'Open a game record'),
      text, el('label', {}, 'Or a file: ', file),
      el('details', {}, el('summary', {}, 'Its variant is not shipped with kickoff'), definition),
      el('button', { type: 'submit', id: 'open-record', class: 'primary' }, 'Open'),
      problems),
    viewer));
  if (given.has('record')) open(new Event('submit'));
}

/** A record on the board, one position at a time. */
class Viewer {
  constructor(host, record, definition) {
    this.host = host;
    this.record = record;
    this.definition = definition;
    this.at = 0; // turns played
    this.flipped = false;
    this.boardHost = el('div', { class: 'board', id: 'board' });
    this.board = new Board(this.boardHost, { onSquare: () => {} });
    this.moves = el('ol', { class: 'moves', id: 'moves' });
    this.where = el('p', { class: 'status', id: 'where' });
    const button = (id, label, f) => el('button', { id, onclick: f }, label);
    const nav = el('div', { class: 'buttons' },
      button('first', '« Start', () => this.show(0)),
      button('previous', '◀ Back', () => this.show(this.at - 1)),
      button('next', 'Forward ▶', () => this.show(this.at + 1)),
      button('last', 'End »', () => this.show(this.record.plies.length)),
      button('flip', 'Flip', () => { this.flipped = !this.flipped; this.show(this.at); }));
    const tags = el('dl', { class: 'tags' },
      record.tags.flatMap(([name, value]) => [el('dt', {}, name), el('dd', {}, value)]));
    const end = record.ending ? el('p', { class: 'status over' }, `${record.ending.result}: ${record.ending.reason}.`) : null;
    const error = record.error ? el('p', { class: 'error', id: 'record-error' }, record.error) : null;
    host.replaceChildren(el('div', { class: 'game' },
      el('div', { class: 'left' }, this.boardHost),
      el('div', { class: 'right' }, el('h2', {}, record.title), tags, this.where, nav, this.moves, end, error)));
    this.renderMoves();
    document.onkeydown = (e) => {
      if (e.target.closest('textarea, input')) return;
      if (e.key === 'ArrowLeft') this.show(this.at - 1);
      if (e.key === 'ArrowRight') this.show(this.at + 1);
    };
  }

  renderMoves() {
    let row = null;
    this.record.plies.forEach((p, i) => {
      if (!row || p.side === 'white') {
        row = el('li', {}, el('span', { class: 'label' }, p.label));
        this.moves.append(row);
      }
      row.append(el('span', { class: 'move', 'data-index': i + 1, onclick: () => this.show(i + 1) }, p.name));
    });
  }

  /** Shows the position after `n` turns. */
  async show(n) {
    const plies = this.record.plies;
    this.at = Math.max(0, Math.min(plies.length, n));
    const ply = this.at > 0 ? plies[this.at - 1] : null;
    const request = {
      fen: ply ? ply.fen : this.record.start,
      arrows: ply ? ply.arrows : [],
      marked: ply ? ply.marked : [],
      flip: this.flipped,
    };
    if (this.definition) request.definition = this.definition;
    else request.variant = this.record.variant;
    const where = ply ? `After ${ply.label} ${ply.name} (turn ${this.at} of ${plies.length})`
      : `The start (${plies.length} turns)`;
    let answer;
    try {
      answer = await post('/api/render', request);
    } catch (e) {
      this.where.textContent = `${where}: the board could not be drawn (${e.message})`;
      return;
    }
    this.board.show(answer.svg);
    this.where.textContent = where;
    for (const m of this.moves.querySelectorAll('.move')) {
      m.classList.toggle('last', Number(m.dataset.index) === this.at);
    }
  }
}
