// A variant's page: its name, credits and description, buttons to play it, its diagrams (the
// start, the goals and zones, each piece's moves and kicks), what the solver says of its start,
// and its rules in words. Every text of the definition is set as text; the diagrams are the
// server's drawings, whose only text (a label) the server escapes.

import { get, post, el } from './api.js';

/** How often, and how many times, the page asks again for facts being computed. */
const FACTS_POLL_MS = 3000;
const FACTS_POLLS = 60;

/** The address of a variant's page, from a shipped name or a stored definition's name. */
export function variantPage(name) {
  const key = String(name).replace(/\.toml$/, '');
  return `/variants/${encodeURIComponent(key)}`;
}

/** `By A, 1951.` from a page's or a variant's credits, or null. */
export function credits(v) {
  if (v.author && v.year) return `By ${v.author}, ${v.year}.`;
  if (v.author) return `By ${v.author}.`;
  if (v.year) return `Published in ${v.year}.`;
  return null;
}

/** A drawing of the server's renderer in a figure with its caption. */
function figure(id, svg, ...caption) {
  const drawing = el('div', { class: 'drawing' });
  drawing.innerHTML = svg;
  return el('figure', { class: 'variant-diagram', id }, drawing, el('figcaption', {}, ...caption));
}

export async function showVariant(screen, key) {
  let page;
  try {
    page = await get(`/api/variants/${encodeURIComponent(key)}/page`);
  } catch (e) {
    screen.append(el('p', { class: 'error', id: 'variant-error' }, e.message, ' ',
      el('a', { href: '/' }, 'Start a game.')));
    return;
  }
  const problems = el('p', { class: 'error', id: 'variant-problem' });
  const playEngine = async () => {
    problems.textContent = '';
    const request = { opponent: 'engine', level: 2, side: 'white' };
    if (page.shipped) request.variant = page.shipped;
    else request.definition = page.text;
    try {
      const created = await post('/api/games', request);
      location.assign(created.url);
    } catch (e) {
      problems.textContent = e.message;
    }
  };
  const source = page.source && /^https?:\/\//i.test(page.source)
    ? el('a', { href: page.source, rel: 'noopener noreferrer nofollow' }, page.source)
    : page.source;
  const buttons = el('div', { class: 'buttons variant-buttons' },
    el('button', { id: 'play-engine', class: 'primary', onclick: playEngine }, 'Play the engine'),
    page.shipped
      ? el('a', { id: 'seek-lobby', class: 'button', href: `/lobby?variant=${encodeURIComponent(page.shipped)}` },
        'Seek a game in the lobby')
      : null,
    el('a', { id: 'open-editor', class: 'button', href: `/author?variant=${encodeURIComponent(page.key)}` },
      'Open it in the editor'));
  if (page.shipped) {
    // Its puzzles, where kickoff ships some.
    get('/api/puzzles').then((sets) => {
      const set = sets.find((s) => s.variant === page.shipped);
      if (set) {
        buttons.append(el('a', { id: 'variant-puzzles', class: 'button',
          href: `/puzzles/${encodeURIComponent(set.variant)}#1` }, `${set.count} puzzles`));
      }
    }).catch(() => {});
  }
  const facts = el('div', { id: 'facts', class: 'facts' });
  const field = page.field;
  const fieldCaption = [
    field.goals.map((g) => `${g.side === 'white' ? 'White' : 'Black'} scores on ${g.squares}.`).join(' '),
    field.zoned ? ` Shaded (${field.zoned}): squares some pieces are kept to or kept out of.` : '',
    field.zones.length
      ? ` Kept to their zones (White's side; Black's mirrored): ${field.zones.map((z) => `${z.piece} ${z.squares}`).join('; ')}.`
      : '',
    field.forbidden ? ` The ball may not stop on ${field.forbidden}.` : '',
  ].join('');
  const pieces = page.pieces.map((p) => figure(`piece-${p.letter}`, p.svg,
    el('strong', {}, `${p.name} (${p.letter})`), ` on ${p.from}: `,
    el('span', { class: 'key-move' }, '●'), ` moves (${p.moves.length})`,
    p.captures.length ? [', ', el('span', { class: 'key-capture' }, '○'), ` captures (${p.captures.length})`] : '',
    ', ', el('span', { class: 'key-kick' }, '✕'), ` kicks the ball from its square (${p.kicks.length})`));
  screen.append(el('section', { class: 'variant', id: 'variant' },
    el('h1', { id: 'variant-title' }, page.title),
    el('p', { class: 'credits', id: 'variant-credits' }, credits(page) || '',
      source ? [' Source: ', source, '.'] : ''),
    page.description ? el('p', { class: 'description', id: 'variant-description' }, page.description) : null,
    el('p', { class: 'hint' }, page.shipped ? `Shipped with kickoff as ${page.shipped}.`
      : `A definition kept by this server (${page.key}).`,
    page.random_setup ? ' Games start from a random setup.' : ''),
    buttons, problems,
    el('h2', {}, 'What the solver says'), facts,
    el('h2', {}, 'The board'),
    el('div', { class: 'variant-diagrams' },
      figure('start-diagram', page.start, 'The start.'),
      figure('field-diagram', field.svg, fieldCaption)),
    el('h2', {}, 'The pieces'),
    el('div', { class: 'variant-diagrams pieces', id: 'pieces' }, pieces),
    el('h2', {}, 'The rules'),
    el('pre', { class: 'explain', id: 'rules-text' }, page.explain)));
  showFacts(facts, page.facts);
  for (let poll = 0; page.facts.status !== 'settled' && poll < FACTS_POLLS; poll += 1) {
    await new Promise((resolve) => { setTimeout(resolve, FACTS_POLL_MS); });
    if (!facts.isConnected) return;
    try {
      page = await get(`/api/variants/${encodeURIComponent(key)}/page`);
    } catch {
      continue;
    }
    showFacts(facts, page.facts);
  }
}

function showFacts(host, facts) {
  host.dataset.status = facts.status;
  host.replaceChildren(el('ul', {}, facts.lines.map((line) => el('li', {}, line))));
}

/**
 * The rules panel of a game: the variant's description and its rules in words, read when the
 * panel is first opened, with a link to the variant's page.
 */
export function rulesPanel(variant) {
  const body = el('div', { class: 'rules-body' });
  const panel = el('details', { class: 'rules-panel', id: 'rules-panel' },
    el('summary', {}, 'Rules'),
    el('p', {}, el('a', { id: 'variant-link', href: variantPage(variant) }, 'The variant’s page')),
    body);
  let asked = false;
  panel.addEventListener('toggle', async () => {
    if (!panel.open || asked) return;
    asked = true;
    body.replaceChildren(el('p', { class: 'hint' }, 'Reading the rules…'));
    try {
      const page = await get(`/api/variants/${encodeURIComponent(String(variant).replace(/\.toml$/, ''))}/page`);
      body.replaceChildren(
        page.description ? el('p', { class: 'description' }, page.description) : '',
        el('pre', { class: 'explain', id: 'rules-panel-text' }, page.explain));
    } catch (e) {
      asked = false;
      body.replaceChildren(el('p', { class: 'error' }, e.message));
    }
  });
  return panel;
}
