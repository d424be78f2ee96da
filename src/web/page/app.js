// kickoff's page: one document, a screen per address, under a header that signs in and out.
//   /                   start a game
//   /play/ID/KEY        a game (the link is the key to it)
//   /lobby              seek a game, accept one, find your games and games to watch
//   /watch/ID           a game of the lobby, followed by anyone
//   /author             write a variant
//   /records            open a record and step through it
//   /variants/KEY       a variant's page: its rules, diagrams and what the solver says of it

import { showHome } from './home.js';
import { showGame } from './play.js';
import { showAuthor } from './author.js';
import { showRecords } from './records.js';
import { showLobby } from './lobby.js';
import { showWatch } from './watch.js';
import { showVariant } from './variant.js';
import { showHeader } from './header.js';
import { el } from './api.js';

function route() {
  const screen = document.getElementById('screen');
  screen.replaceChildren();
  const path = location.pathname;
  const game = path.match(/^\/play\/([0-9a-f]+)\/([0-9a-f]+)$/);
  const watched = path.match(/^\/watch\/([0-9a-f]+)$/);
  const variant = path.match(/^\/variants\/([^/]+)$/);
  let nav = 'home';
  if (game) {
    nav = '';
    showGame(screen, game[1], game[2]);
  } else if (watched) {
    nav = '';
    showWatch(screen, watched[1]);
  } else if (variant) {
    nav = '';
    showVariant(screen, decodeURIComponent(variant[1]));
  } else if (path === '/lobby') {
    nav = 'lobby';
    showLobby(screen);
  } else if (path === '/author') {
    nav = 'author';
    showAuthor(screen);
  } else if (path === '/records') {
    nav = 'records';
    showRecords(screen);
  } else if (path === '/') {
    showHome(screen);
  } else {
    screen.append(el('p', {}, 'There is nothing here. ', el('a', { href: '/' }, 'Start a game.')));
  }
  for (const a of document.querySelectorAll('[data-nav]')) {
    a.classList.toggle('current', a.dataset.nav === nav);
  }
}

showHeader(document.getElementById('account'));
route();
