// The gallery: the variants accounts published for everyone, searched by name, author, board
// size and ball, each with its start position (drawn by the server once a version); and one
// published variant with its versions (public, or unlisted and reached by its link), where its
// owner changes who sees it and an administrator hides it. Each can be cloned into the editor or
// played against the engine. Everything shown is set as text.

import { get, post, el } from './api.js';
import { whoAmI } from './header.js';

const BALLS = { kicked: 'a kicked ball', carried: 'a carried ball', none: 'no ball' };

/** The address of a published variant's screen. */
export function variantLink(v) {
  return `/gallery/${encodeURIComponent(v.owner)}/${encodeURIComponent(v.name)}`;
}

/** Opens the editor with a published variant's newest text. */
function cloneLink(v) {
  return `/author?clone=${encodeURIComponent(`${v.owner}/${v.name}`)}`;
}

/** Starts a game of a published version against the engine, and opens it. */
async function playVersion(version, problem) {
  try {
    const created = await post('/api/games', { published: version, opponent: 'engine', level: 1 });
    location.assign(created.url);
  } catch (e) {
    problem.textContent = e.message;
    problem.hidden = false;
  }
}

function facts(v) {
  return `${v.files}×${v.ranks}, ${BALLS[v.ball] || v.ball}`;
}

function entry(v) {
  const problem = el('p', { class: 'error', hidden: true });
  return el('li', { class: 'gallery-item', 'data-owner': v.owner, 'data-name': v.name },
    el('a', { href: v.page, class: 'diagram-link' },
      el('img', { src: v.diagram, alt: `The start of ${v.title}`, loading: 'lazy', width: 160 })),
    el('div', { class: 'about' },
      el('h3', {}, el('a', { href: variantLink(v), class: 'title' }, v.title)),
      el('p', {}, el('span', { class: 'user' }, v.owner), ' / ', el('span', { class: 'name' }, v.name),
        ' · ', facts(v)),
      el('div', { class: 'buttons' },
        el('a', { href: cloneLink(v), class: 'button clone' }, 'Clone into the editor'),
        el('button', { class: 'play', onclick: () => playVersion(v.version, problem) },
          'Play it against the engine'),
        el('a', { href: v.page, class: 'version-page' }, 'This version')),
      problem));
}

export async function showGallery(screen) {
  const params = new URLSearchParams(location.search);
  const field = (id, label, attributes = {}) => el('input', { id, 'aria-label': label,
    value: params.get(id.replace('gallery-', '')) || '', ...attributes });
  const q = field('gallery-q', 'Name', { size: 16, placeholder: 'name or title' });
  const author = field('gallery-author', 'Author', { size: 12, placeholder: 'anyone' });
  const files = field('gallery-files', 'Files', { type: 'number', min: 2, max: 16, size: 3 });
  const ranks = field('gallery-ranks', 'Ranks', { type: 'number', min: 2, max: 24, size: 3 });
  const ball = el('select', { id: 'gallery-ball', 'aria-label': 'Ball' },
    el('option', { value: '' }, 'any ball'),
    el('option', { value: 'kicked', selected: params.get('ball') === 'kicked' }, 'kicked'),
    el('option', { value: 'carried', selected: params.get('ball') === 'carried' }, 'carried'),
    el('option', { value: 'none', selected: params.get('ball') === 'none' }, 'none'));
  const results = el('ul', { id: 'gallery-results', class: 'gallery' });
  const summary = el('p', { id: 'gallery-summary', class: 'hint' });
  const pages = el('div', { class: 'buttons' });
  let page = Number(params.get('page')) || 1;

  const search = async () => {
    const query = new URLSearchParams();
    for (const [name, input] of [['q', q], ['author', author], ['files', files], ['ranks', ranks], ['ball', ball]]) {
      if (input.value.trim()) query.set(name, input.value.trim());
    }
    if (page > 1) query.set('page', String(page));
    history.replaceState(null, '', `/gallery${query.toString() ? `?${query}` : ''}`);
    let answer;
    try {
      answer = await get(`/api/gallery?${query}`);
    } catch (e) {
      summary.textContent = e.message;
      return;
    }
    results.replaceChildren(...answer.variants.map(entry));
    summary.textContent = answer.total === 0 ? 'No published variant matches.'
      : `${answer.total} variant${answer.total === 1 ? '' : 's'}, page ${answer.page} of ${answer.pages}.`;
    pages.replaceChildren();
    if (answer.page > 1) {
      pages.append(el('button', { onclick: () => { page -= 1; search(); } }, 'Previous'));
    }
    if (answer.page < answer.pages) {
      pages.append(el('button', { id: 'gallery-next', onclick: () => { page += 1; search(); } }, 'Next'));
    }
  };

  const submit = (event) => {
    event.preventDefault();
    page = 1;
    search();
  };

  screen.append(el('section', { class: 'gallery-screen' },
    el('h1', {}, 'Published variants'),
    el('form', { class: 'gallery-search', onsubmit: submit },
      q, author, el('label', {}, 'Board: ', files, ' × ', ranks), ball,
      el('button', { type: 'submit', id: 'gallery-search', class: 'primary' }, 'Search')),
    summary, results, pages,
    el('p', { class: 'hint' }, 'Publish your own from ', el('a', { href: '/author' }, 'the editor'), '.')));
  await search();
}

/** PATCH a JSON body, get a JSON answer. */
async function patch(path, body) {
  const response = await fetch(path, { method: 'PATCH',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body) });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.error || `the server answered ${response.status}`);
  return answer;
}

/**
 * What its owner (who may change who sees it) and an administrator (who may hide it) have on a
 * variant's screen.
 */
function controls(v, me, api, problem) {
  const parts = [];
  const failed = (e) => {
    problem.textContent = e.message;
    problem.hidden = false;
  };
  if (me.name && me.name.toLowerCase() === v.owner.toLowerCase()) {
    const select = el('select', { id: 'published-visibility', 'aria-label': 'Who may see it' },
      ['public', 'unlisted', 'private'].map((value) =>
        el('option', { value, selected: value === v.visibility }, value)));
    select.addEventListener('change', async () => {
      try {
        await patch(api, { visibility: select.value });
        location.reload();
      } catch (e) {
        failed(e);
      }
    });
    parts.push(el('label', {}, 'Who may see it: ', select));
  }
  if (me.admin) {
    const action = v.hidden ? 'unhide' : 'hide';
    parts.push(el('button', { id: 'published-hide', onclick: async () => {
      try {
        await post(`${api}/${action}`);
        location.reload();
      } catch (e) {
        failed(e);
      }
    } }, v.hidden ? 'Show it again' : 'Hide it'));
  }
  return parts.length ? el('div', { class: 'buttons' }, parts) : null;
}

/** One published variant, with its versions, newest first. */
export async function showPublished(screen, owner, name) {
  let v;
  const api = `/api/published/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
  const me = await whoAmI();
  try {
    v = await get(api);
  } catch (e) {
    screen.append(el('p', { class: 'error' }, e.message), el('p', {}, el('a', { href: '/gallery' }, 'The gallery')));
    return;
  }
  const problem = el('p', { class: 'error', hidden: true });
  const versions = el('ol', { id: 'versions', class: 'versions' },
    v.versions.map((version, i) => el('li', {},
      el('a', { href: version.page }, version.title), ` · ${facts(version)} · `,
      new Date(version.created).toLocaleString(), i === 0 ? ' (newest)' : '')));
  screen.append(el('section', { class: 'published', id: 'published' },
    el('h1', { id: 'published-title' }, v.title),
    el('p', {}, 'Published by ', el('strong', { class: 'user' }, v.owner), ' as ',
      el('span', { class: 'name' }, v.name), ` · ${v.visibility}${v.hidden ? ', hidden' : ''} · ${facts(v)}`),
    el('img', { src: v.diagram, alt: `The start of ${v.title}`, class: 'published-diagram', width: 320 }),
    el('div', { class: 'buttons' },
      el('a', { href: cloneLink(v), class: 'button clone' }, 'Clone into the editor'),
      el('button', { class: 'play primary', onclick: () => playVersion(v.version, problem) },
        'Play it against the engine')),
    controls(v, me, api, problem),
    problem,
    el('h2', {}, 'Versions'), versions,
    el('h2', {}, 'Its definition'), el('pre', { class: 'explain' }, v.text)));
}
