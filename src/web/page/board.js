// The board: the SVG that kickoff draws (the same drawing as `kickoff render`), with the page's
// marks over it and the pointer turned into squares. Clicks and drags both end in `onSquare`.

const SVG = 'http://www.w3.org/2000/svg';

/** How far (in board units) the pointer must move before a press becomes a drag. */
const DRAG_START = 6;

export class Board {
  /**
   * @param {HTMLElement} host where the board goes
   * @param {object} handlers
   *   onSquare(square, from): a square clicked, or a drag from `from` dropped on `square`
   *   canDrag(square): whether what stands on `square` may be dragged
   */
  constructor(host, handlers) {
    this.host = host;
    this.handlers = handlers;
    this.svg = null;
    this.press = null;
  }

  /** Shows a new drawing (the marks go with the old one). */
  show(svgText) {
    this.host.innerHTML = svgText;
    this.svg = this.host.querySelector('svg');
    if (!this.svg) return;
    this.svg.removeAttribute('width');
    this.svg.removeAttribute('height');
    // Held to the window's height, a tall board is drawn at the left of its box, not centred.
    this.svg.setAttribute('preserveAspectRatio', 'xMinYMin meet');
    const d = this.svg.dataset;
    this.files = Number(d.files);
    this.ranks = Number(d.ranks);
    this.flipped = d.flipped === 'true';
    this.size = Number(d.square);
    this.left = Number(d.left);
    this.top = Number(d.top);
    this.overlay = document.createElementNS(SVG, 'g');
    this.overlay.setAttribute('class', 'overlay');
    this.svg.append(this.overlay);
    this.svg.addEventListener('pointerdown', (e) => this.down(e));
    this.svg.addEventListener('pointermove', (e) => this.move(e));
    this.svg.addEventListener('pointerup', (e) => this.up(e));
    this.svg.addEventListener('pointercancel', () => this.cancel());
  }

  /** The board point under a pointer event. */
  point(event) {
    const p = this.svg.createSVGPoint();
    p.x = event.clientX;
    p.y = event.clientY;
    return p.matrixTransform(this.svg.getScreenCTM().inverse());
  }

  /** The name of the square at a board point, or null off the board. */
  squareAt(p) {
    const col = Math.floor((p.x - this.left) / this.size);
    const row = Math.floor((p.y - this.top) / this.size);
    if (col < 0 || row < 0 || col >= this.files || row >= this.ranks) return null;
    const file = this.flipped ? this.files - 1 - col : col;
    const rank = this.flipped ? row : this.ranks - 1 - row;
    return String.fromCharCode(97 + file) + (rank + 1);
  }

  /** The top left corner of a square. */
  corner(square) {
    const file = square.charCodeAt(0) - 97;
    const rank = Number(square.slice(1)) - 1;
    const col = this.flipped ? this.files - 1 - file : file;
    const row = this.flipped ? rank : this.ranks - 1 - rank;
    return { x: this.left + col * this.size, y: this.top + row * this.size };
  }

  down(event) {
    if (event.button !== 0) return;
    const p = this.point(event);
    const square = this.squareAt(p);
    if (!square) return;
    const item = this.handlers.canDrag && this.handlers.canDrag(square)
      ? this.svg.querySelector(`.pieces [data-square="${square}"]`)
      : null;
    this.press = { square, start: p, item, dragging: false };
    this.svg.setPointerCapture(event.pointerId);
  }

  move(event) {
    if (!this.press || !this.press.item) return;
    const p = this.point(event);
    const dx = p.x - this.press.start.x;
    const dy = p.y - this.press.start.y;
    if (!this.press.dragging && Math.hypot(dx, dy) < DRAG_START) return;
    this.press.dragging = true;
    this.press.item.setAttribute('transform', `translate(${dx} ${dy})`);
    this.press.item.classList.add('dragged');
  }

  up(event) {
    const press = this.press;
    this.press = null;
    if (!press) return;
    if (press.item) {
      press.item.removeAttribute('transform');
      press.item.classList.remove('dragged');
    }
    const square = this.squareAt(this.point(event));
    if (!square) return;
    if (press.dragging && square !== press.square) this.handlers.onSquare(square, press.square);
    else if (square === press.square) this.handlers.onSquare(square, null);
  }

  cancel() {
    if (this.press && this.press.item) this.press.item.removeAttribute('transform');
    this.press = null;
  }

  /** Removes the marks. */
  clear() {
    if (this.overlay) this.overlay.replaceChildren();
  }

  /**
   * Marks squares: 'selected' (the piece chosen), 'target' (where it may go), 'kick' (where the
   * ball may be kicked), 'movable' (pieces that may act).
   */
  mark(squares, kind) {
    if (!this.overlay) return;
    const s = this.size;
    for (const square of squares) {
      const { x, y } = this.corner(square);
      let shape;
      if (kind === 'target') {
        shape = circle(x + s / 2, y + s / 2, s * 0.15);
      } else if (kind === 'kick') {
        shape = circle(x + s / 2, y + s / 2, s * 0.38);
      } else {
        shape = document.createElementNS(SVG, 'rect');
        const inset = kind === 'movable' ? 2 : 0;
        shape.setAttribute('x', x + inset);
        shape.setAttribute('y', y + inset);
        shape.setAttribute('width', s - 2 * inset);
        shape.setAttribute('height', s - 2 * inset);
      }
      shape.setAttribute('class', `mark ${kind}`);
      shape.dataset.square = square;
      this.overlay.append(shape);
    }
  }

  /**
   * Draws an arrow from the centre of one square towards another's, of a kind ('threat-move',
   * 'threat-kick') the style sheet colours.
   */
  arrow(from, to, kind) {
    if (!this.overlay) return;
    const s = this.size;
    const a = this.corner(from);
    const b = this.corner(to);
    const [x1, y1, x2, y2] = [a.x + s / 2, a.y + s / 2, b.x + s / 2, b.y + s / 2];
    const length = Math.hypot(x2 - x1, y2 - y1);
    if (length === 0) return;
    const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
    const head = s * 0.3;
    // The shaft stops where the head starts; the head's point stops short of the centre.
    const tip = { x: x2 - ux * s * 0.15, y: y2 - uy * s * 0.15 };
    const base = { x: tip.x - ux * head, y: tip.y - uy * head };
    const group = document.createElementNS(SVG, 'g');
    group.setAttribute('class', `mark arrow ${kind}`);
    group.dataset.from = from;
    group.dataset.to = to;
    const line = document.createElementNS(SVG, 'line');
    line.setAttribute('x1', x1);
    line.setAttribute('y1', y1);
    line.setAttribute('x2', base.x);
    line.setAttribute('y2', base.y);
    line.setAttribute('stroke-width', s * 0.09);
    const point = document.createElementNS(SVG, 'polygon');
    const side = head * 0.6;
    point.setAttribute('points', [
      [tip.x, tip.y],
      [base.x - uy * side, base.y + ux * side],
      [base.x + uy * side, base.y - ux * side],
    ].map((p) => p.join(',')).join(' '));
    group.append(line, point);
    this.overlay.append(group);
  }
}

function circle(cx, cy, r) {
  const c = document.createElementNS(SVG, 'circle');
  c.setAttribute('cx', cx);
  c.setAttribute('cy', cy);
  c.setAttribute('r', r);
  return c;
}
