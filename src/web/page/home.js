// The first screen: choose a variant (shipped, published, or a definition of your own), a setup
// and an opponent, and start.

import { get, post, el, readFile } from './api.js';
import { showDiagnostics } from './author.js';
import { whoAmI } from './header.js';

/**
 * The engine's levels, in words: how far each looks (the search's limits, `Limits::level` in
 * kickoff's engine) and what that means for a player.
 */
const LEVELS = [
  [1, 'beginner', 'Looks one turn ahead: it scores whenever it can, but does not see your reply '
    + 'coming, so it often leaves you a shot at its goal.'],
  [2, 'club', 'Looks two turns ahead, its turn and your reply: it scores whenever it can and '
    + 'stops a goal you threaten for your next turn when it can. Leave the ball open and it '
    + 'often scores within a few turns.'],
  [3, 'strong', 'Thinks a fifth of a second a turn, as many turns ahead as that allows, and '
    + 'looks for a goal it can force within two of its turns.'],
  [4, 'strongest', 'Thinks a second a turn, as many turns ahead as that allows, and looks for a '
    + 'goal it can force within three of its turns.'],
];

/**
 * Published variants to play: the account's own and the gallery's first page, each by its newest
 * version (`HASH.toml`).
 */
async function publishedVariants() {
  const me = await whoAmI();
  const lists = await Promise.all([
    me.name ? get('/api/my/variants').catch(() => []) : [],
    get('/api/gallery').then((page) => page.variants).catch(() => []),
  ]);
  const seen = new Set();
  return lists.flat().filter((v) => !seen.has(v.version) && seen.add(v.version));
}

export async function showHome(screen) {
  const [variants, published] = await Promise.all([get('/api/variants'), publishedVariants()]);
  const variant = el('select', { id: 'variant', name: 'variant' },
    variants.map((v) => el('option', { value: v.name }, `${v.title} (${v.name})`)),
    published.length ? el('optgroup', { label: 'Published' },
      published.map((v) => el('option', { value: v.version, 'data-published': 'true' },
        `${v.title} (${v.owner}/${v.name})`))) : null,
    el('option', { value: '' }, 'My own definition…'));
  const own = el('textarea', { id: 'definition', rows: 10, spellcheck: 'false',
    placeholder: 'Paste a definition (TOML) here, or pick a file.' });
  const file = el('input', { type: 'file', accept: '.toml,text/plain' });
  file.addEventListener('change', async () => { own.value = (await readFile(file)) || ''; });
  const ownBox = el('div', { class: 'own', hidden: true }, own, el('label', {}, 'File: ', file));
  const setup = el('input', { id: 'setup', name: 'setup', size: 10, placeholder: 'random' });
  const setupBox = el('label', { hidden: true }, 'Setup number: ', setup);
  const level = el('select', { id: 'level', 'aria-describedby': 'level-help' },
    LEVELS.map(([n, name]) => el('option', { value: n, selected: n === 2 }, `${n}: ${name}`)));
  const levelHelp = el('p', { id: 'level-help', class: 'hint' });
  const explainLevel = () => {
    levelHelp.textContent = LEVELS.find(([n]) => String(n) === level.value)[2];
  };
  level.addEventListener('change', explainLevel);
  explainLevel();
  const opponents = [
    ['engine', 'the engine'],
    ['hotseat', 'a friend at this screen'],
    ['remote', 'a friend in another browser (you get a link to send)'],
  ].map(([value, text], i) => el('label', { class: 'choice' },
    el('input', { type: 'radio', name: 'opponent', value, checked: i === 0 }), ' ', text));
  const side = el('select', { id: 'side' },
    el('option', { value: 'white' }, 'White'), el('option', { value: 'black' }, 'Black'),
    el('option', { value: 'random' }, 'either'));
  const problems = el('div', { class: 'problems' });

  const sync = () => {
    const chosen = variants.find((v) => v.name === variant.value);
    const isPublished = published.some((v) => v.version === variant.value);
    ownBox.hidden = variant.value !== '';
    setupBox.hidden = isPublished || !(chosen ? chosen.random_setup : true);
  };
  variant.addEventListener('change', sync);
  sync();

  const start = async (event) => {
    event.preventDefault();
    problems.replaceChildren();
    const opponent = screen.querySelector('input[name=opponent]:checked').value;
    const request = { opponent, level: Number(level.value), side: side.value, setup: setup.value };
    if (published.some((v) => v.version === variant.value)) request.published = variant.value;
    else if (variant.value) request.variant = variant.value;
    else request.definition = own.value;
    try {
      const created = await post('/api/games', request);
      location.assign(created.url);
    } catch (e) {
      problems.append(el('p', { class: 'error' }, e.message));
      if (e.body && e.body.diagnostics) showDiagnostics(problems, e.body.diagnostics, null, e.body.more);
    }
  };

  screen.append(el('section', { class: 'home' },
    el('h1', {}, 'Football chess, and any variant you write'),
    el('form', { class: 'start', onsubmit: start },
      el('label', {}, 'Variant: ', variant), ownBox, setupBox,
      el('fieldset', {}, el('legend', {}, 'Play against'), opponents,
        el('label', {}, 'Engine: ', level), levelHelp),
      el('label', {}, 'You play: ', side),
      el('button', { type: 'submit', id: 'start', class: 'primary' }, 'Start the game'),
      problems),
    el('p', { class: 'hint' }, 'Or ', el('a', { href: '/author' }, 'write a variant'),
      ', or ', el('a', { href: '/records' }, 'open a game record'), '.')));
}
