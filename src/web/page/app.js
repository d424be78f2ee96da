// kickoff's page: one document, a screen per address, under a header that signs in and out.
//   /                   start a game
//   /play/ID/KEY        a game (the link is the key to it)
//   /lobby              seek a game, accept one, find your games and games to watch
//   /watch/ID           a game of the lobby, followed by anyone
//   /author             write a variant (and publish it)
//   /gallery            published variants, searched
//   /gallery/OWNER/NAME a published variant and its versions
//   /records            open a record and step through it
//   /variants/KEY       a variant's page: its rules, diagrams and what the solver says of it
//   /puzzles            the puzzles' sets; /puzzles/VARIANT#N plays puzzle N of a set

import { showHome } from './home.js';
import { showGame } from './play.js';
import { showAuthor } from './author.js';
import { showRecords } from './records.js';
import { showLobby } from './lobby.js';
import { showWatch } from './watch.js';
import { showVariant } from './variant.js';
import { showHeader } from './header.js';
import { showGallery, showPublished } from './gallery.js';
import { showPuzzleSets, showPuzzles } from './puzzles.js';
import { el } from './api.js';

/** A part of the address as it was written, or as it is when it is not well encoded. */
function decoded(part) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function route() {
  const screen = document.getElementById('screen');
  screen.replaceChildren();
  const path = location.pathname;
  const game = path.match(/^\/play\/([0-9a-f]+)\/([0-9a-f]+)$/);
  const watched = path.match(/^\/watch\/([0-9a-f]+)$/);
  const published = path.match(/^\/gallery\/([^/]+)\/([^/]+)$/);
  const variant = path.match(/^\/variants\/([^/]+)$/);
  const puzzles = path.match(/^\/puzzles\/([^/]+)$/);
  let nav = 'home';
  if (game) {
    nav = '';
    showGame(screen, game[1], game[2]);
  } else if (watched) {
    nav = '';
    showWatch(screen, watched[1]);
  } else if (variant) {
    nav = '';
    showVariant(screen, decoded(variant[1]));
  } else if (path === '/lobby') {
    nav = 'lobby';
    showLobby(screen);
  } else if (path === '/author') {
    nav = 'author';
    showAuthor(screen);
  } else if (path === '/gallery') {
    nav = 'gallery';
    showGallery(screen);
  } else if (published) {
    nav = 'gallery';
    showPublished(screen, decoded(published[1]), decoded(published[2]));
  } else if (path === '/puzzles') {
    nav = 'puzzles';
    showPuzzleSets(screen);
  } else if (puzzles) {
    nav = 'puzzles';
    showPuzzles(screen, decoded(puzzles[1]));
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
