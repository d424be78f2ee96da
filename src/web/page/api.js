// Talking to kickoff's server, and small helpers for building the page.

/** An answer the server refused: its status and its JSON body. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `the server answered ${status}`);
    this.status = status;
    this.body = body;
  }
}

async function answer(response) {
  const text = await response.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = { error: text };
  }
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

/** Times a request the server turned away for now (429, 503) is sent again. */
const RETRIES = 3;

/**
 * Fetches, and when the server is too busy or the page asks too often (a refusal that changed
 * nothing), waits as long as the server says (at most ten seconds) and asks again.
 */
async function patiently(path, options) {
  for (let attempt = 0; ; attempt += 1) {
    const response = await fetch(path, options);
    if (![429, 503].includes(response.status) || attempt === RETRIES) return answer(response);
    const seconds = Number(response.headers.get('Retry-After')) || 1;
    await new Promise((resolve) => { setTimeout(resolve, Math.min(seconds, 10) * 1000); });
  }
}

/** GET a JSON answer. */
export async function get(path) {
  return patiently(path, { headers: { Accept: 'application/json' } });
}

/** POST a JSON body, get a JSON answer. */
export async function post(path, body = {}) {
  return patiently(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  });
}

/** DELETE, get the JSON answer (none for 204). */
export async function del(path) {
  return patiently(path, { method: 'DELETE', headers: { Accept: 'application/json' } });
}

/**
 * Makes an element: el('button', { class: 'x', onclick: f }, 'text', child ...).
 * Text is always set as text, never as HTML.
 */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else if (name === 'value') node.value = value;
    else node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** Reads a file the person picked, as text. */
export function readFile(input) {
  const file = input.files && input.files[0];
  return file ? file.text() : Promise.resolve(null);
}
