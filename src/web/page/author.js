// Writing a variant: the definition in an editor, its problems (the diagnostics of `kickoff
// validate`, each at its line and column) as you type, its rules in words (`kickoff explain`),
// its start position drawn, and buttons to play it or to simulate random games under it. A
// signed-in account publishes it (a name, who may see it) and lists the variants it published;
// `/author?clone=OWNER/NAME` opens a published variant's newest text.

import { get, post, el, readFile } from './api.js';
import { whoAmI } from './header.js';
import { variantLink } from './gallery.js';
import { variantPage } from './variant.js';

const STORE = 'kickoff-author-text';
const PAUSE_MS = 300;

/** Lists diagnostics as `validate` prints them; a click on one calls `goTo(d)`. */
export function showDiagnostics(host, diagnostics, goTo, more) {
  const list = el('ul', { class: 'diagnostics' });
  for (const d of diagnostics) {
    const where = `${d.file}:${d.line}:${d.column}`;
    const item = el('li', { class: `diagnostic ${d.severity}`, 'data-line': d.line, 'data-column': d.column },
      el('div', { class: 'summary' }, el('span', { class: 'where' }, where), ' ',
        el('strong', {}, `${d.severity}: `), d.message),
      d.help ? el('div', { class: 'help' }, `help: ${d.help}`) : null,
      el('pre', { class: 'rendered' }, d.rendered));
    if (goTo) item.addEventListener('click', () => goTo(d));
    list.append(item);
  }
  host.append(list);
  if (more) host.append(el('p', { class: 'more' }, more));
}

export async function showAuthor(screen) {
  const variants = await get('/api/variants');
  const editor = el('textarea', { id: 'editor', spellcheck: 'false', wrap: 'off',
    'aria-label': 'The definition' });
  const gutter = el('div', { class: 'gutter', 'aria-hidden': 'true' });
  const problems = el('div', { id: 'problems', class: 'problems' });
  const verdict = el('p', { id: 'verdict', class: 'verdict' });
  const diagram = el('div', { id: 'diagram', class: 'diagram' });
  // While the text is invalid, the drawing and the rules are the last valid definition's.
  const stale = el('p', { id: 'stale', class: 'stale-note', hidden: true });
  const rules = el('pre', { id: 'explain', class: 'explain' });
  const simulated = el('div', { id: 'simulated', class: 'problems' });
  const games = el('input', { id: 'games', type: 'number', min: 1, max: 200, value: 20, size: 4 });
  const template = el('select', { id: 'template' }, el('option', { value: '' }, 'Start from…'),
    variants.map((v) => el('option', { value: v.name }, v.title)));
  const file = el('input', { type: 'file', accept: '.toml,text/plain' });

  // The link to the page of the shipped variant being edited, while the text is its own.
  const pageLink = el('a', { id: 'variant-page-link', hidden: true }, 'This variant’s page');
  const showPageLink = () => {
    const shipped = variants.find((v) => v.text === editor.value);
    pageLink.hidden = !shipped;
    if (shipped) pageLink.href = variantPage(shipped.name);
  };

  editor.value = localStorage.getItem(STORE) || (variants.find((v) => v.name === 'mini') || variants[0]).text;
  const cloned = new URLSearchParams(location.search).get('clone');
  const me = await whoAmI();
  let cloneProblem = null;
  // A variant's page opens its definition here (`/author?variant=KEY`).
  const wanted = new URLSearchParams(location.search).get('variant');
  if (cloned && cloned.includes('/')) {
    const [owner, name] = cloned.split('/', 2);
    try {
      const v = await get(`/api/published/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`);
      editor.value = v.text;
    } catch (e) {
      cloneProblem = `The variant could not be cloned: ${e.message}`;
    }
  } else if (wanted) {
    const shipped = variants.find((v) => v.name === wanted);
    if (shipped) {
      editor.value = shipped.text;
    } else {
      try {
        editor.value = (await get(`/api/variants/${encodeURIComponent(wanted)}/page`)).text;
      } catch (e) {
        cloneProblem = `The variant could not be opened: ${e.message}`;
      }
    }
  }
  let timer = null;
  let checked = 0;

  const lines = () => {
    const count = editor.value.split('\n').length;
    gutter.replaceChildren(...Array.from({ length: count }, (_, i) =>
      el('div', { class: 'line-number', 'data-line': i + 1 }, String(i + 1))));
  };

  const goTo = (d) => {
    const text = editor.value;
    let offset = 0;
    for (let l = 1; l < d.line; l += 1) offset = text.indexOf('\n', offset) + 1;
    editor.focus();
    editor.setSelectionRange(offset + d.column - 1, offset + d.column);
  };

  const check = async () => {
    const asked = ++checked;
    localStorage.setItem(STORE, editor.value);
    showPageLink();
    let answer;
    try {
      answer = await post('/api/definitions/check', { text: editor.value });
    } catch (e) {
      if (asked === checked) verdict.textContent = e.message;
      return;
    }
    if (asked !== checked) return; // a later check is under way
    problems.replaceChildren();
    for (const n of gutter.children) n.classList.remove('error', 'warning');
    for (const d of answer.diagnostics) {
      const n = gutter.querySelector(`[data-line="${d.line}"]`);
      if (n && d.file === 'definition.toml') n.classList.add(d.severity);
    }
    showDiagnostics(problems, answer.diagnostics, goTo, answer.more);
    const { errors, warnings } = answer;
    verdict.textContent = answer.valid
      ? `${answer.title}: valid${warnings ? `, ${warnings} warning(s)` : ''}`
      : `invalid: ${errors} error(s)${warnings ? `, ${warnings} warning(s)` : ''}`;
    verdict.className = answer.valid ? 'verdict valid' : 'verdict invalid';
    if (answer.valid) {
      diagram.innerHTML = answer.svg;
      rules.textContent = answer.explain;
    }
    const old = !answer.valid && diagram.childElementCount > 0;
    diagram.classList.toggle('stale', old);
    rules.classList.toggle('stale', old);
    stale.hidden = !old;
    if (old) {
      stale.textContent = `The last valid definition; the text now has ${errors} `
        + `problem${errors === 1 ? '' : 's'}.`;
    }
    for (const b of screen.querySelectorAll('.needs-valid')) b.disabled = !answer.valid;
  };

  const changed = () => {
    lines();
    clearTimeout(timer);
    timer = setTimeout(check, PAUSE_MS);
  };
  editor.addEventListener('input', changed);
  editor.addEventListener('scroll', () => { gutter.scrollTop = editor.scrollTop; });
  template.addEventListener('change', () => {
    const v = variants.find((x) => x.name === template.value);
    if (v) {
      editor.value = v.text;
      changed();
    }
  });
  file.addEventListener('change', async () => {
    const text = await readFile(file);
    if (text !== null) {
      editor.value = text;
      changed();
    }
  });

  const play = async (opponent) => {
    try {
      const created = await post('/api/games', { definition: editor.value, opponent, level: 2 });
      location.assign(created.url);
    } catch (e) {
      verdict.textContent = e.message;
    }
  };

  const simulate = async () => {
    simulated.replaceChildren(el('p', {}, 'Playing random games…'));
    try {
      const answer = await post('/api/definitions/simulate',
        { text: editor.value, games: Number(games.value) });
      simulated.replaceChildren(el('p', { id: 'simulated-summary' },
        `${answer.played} random games: ${answer.diagnostics.length ? `${answer.diagnostics.length} warning(s)` : 'nothing to report'}.`));
      if (answer.stopped) simulated.append(el('p', { class: 'stopped' }, answer.stopped));
      showDiagnostics(simulated, answer.diagnostics, goTo);
    } catch (e) {
      simulated.replaceChildren(el('p', { class: 'error' }, e.message));
    }
  };

  const publishBox = me.name ? publishForm(editor, verdict) : el('p', { class: 'hint', id: 'publish-hint' },
    'Sign in to publish your variant in the gallery.');

  screen.append(el('section', { class: 'author' },
    el('div', { class: 'left' },
      el('div', { class: 'toolbar' }, template, el('label', {}, 'Open: ', file)),
      el('div', { class: 'editor' }, gutter, editor),
      verdict, el('p', {}, pageLink), problems),
    el('div', { class: 'right' },
      stale, diagram,
      el('div', { class: 'buttons' },
        el('button', { id: 'play-engine', class: 'primary needs-valid', onclick: () => play('engine') }, 'Play it against the engine'),
        el('button', { id: 'play-hotseat', class: 'needs-valid', onclick: () => play('hotseat') }, 'Play it at this screen')),
      el('div', { class: 'buttons' },
        el('button', { id: 'simulate', class: 'needs-valid', onclick: simulate }, 'Simulate'), games, ' random games'),
      simulated,
      publishBox,
      el('h2', {}, 'The rules in words'), rules)));
  if (cloneProblem) verdict.textContent = cloneProblem;
  lines();
  check();
}

/** Who may see a published variant, in words. */
const VISIBILITIES = [
  ['public', 'public: listed in the gallery'],
  ['unlisted', 'unlisted: anyone with its link'],
  ['private', 'private: you only'],
];

/**
 * The editor's publishing form: a name and who may see it; the link of what was published; and
 * the account's variants, each of which opens in the editor.
 */
function publishForm(editor, verdict) {
  const name = el('input', { id: 'publish-name', size: 20, maxlength: 40, autocomplete: 'off',
    placeholder: 'my-variant', 'aria-label': 'Its name' });
  const visibility = el('select', { id: 'publish-visibility', 'aria-label': 'Who may see it' },
    VISIBILITIES.map(([value, text]) => el('option', { value }, text)));
  const button = el('button', { type: 'submit', id: 'publish', class: 'needs-valid' }, 'Publish');
  const result = el('p', { id: 'publish-result', hidden: true });
  const problem = el('p', { id: 'publish-error', class: 'error', hidden: true });
  const mine = el('ul', { id: 'my-variants', class: 'my-variants' });

  const open = async (v) => {
    try {
      const detail = await get(`/api/published/${encodeURIComponent(v.owner)}/${encodeURIComponent(v.name)}`);
      editor.value = detail.text;
      name.value = v.name;
      visibility.value = v.visibility;
      editor.dispatchEvent(new Event('input'));
    } catch (e) {
      verdict.textContent = e.message;
    }
  };

  const list = async () => {
    let variants;
    try {
      variants = await get('/api/my/variants');
    } catch {
      return;
    }
    mine.replaceChildren(...variants.map((v) => el('li', { 'data-name': v.name },
      el('a', { href: variantLink(v) }, v.name), ` · ${v.title} · ${v.visibility}${v.hidden ? ', hidden' : ''} `,
      el('button', { class: 'open', onclick: () => open(v) }, 'Open'))));
    if (variants.length === 0) mine.append(el('li', { class: 'hint' }, 'None yet.'));
  };

  const publish = async (event) => {
    event.preventDefault();
    result.hidden = true;
    problem.hidden = true;
    button.disabled = true;
    try {
      const v = await post('/api/published', { name: name.value.trim(), visibility: visibility.value,
        text: editor.value });
      const link = new URL(variantLink(v), location.origin).href;
      result.replaceChildren(`${v.title} is published (${v.versions.length} version${v.versions.length === 1 ? '' : 's'}): `,
        el('a', { id: 'publish-link', href: variantLink(v) }, link));
      result.hidden = false;
      list();
    } catch (e) {
      problem.textContent = e.message;
      problem.hidden = false;
    } finally {
      button.disabled = false;
    }
  };

  list();
  return el('div', {},
    el('form', { class: 'publish', id: 'publish-form', onsubmit: publish },
      el('h2', {}, 'Publish'),
      el('label', {}, 'Name: ', name), el('label', {}, 'Who may see it: ', visibility),
      el('div', { class: 'buttons' }, button), result, problem),
    el('h2', {}, 'My variants'), mine);
}
