// What the page tells the player about a scan beyond its city and score, above the score where they land:
// a photo that looks like the 18 cards laid out to teach the deck (scored as a city it means nothing, so
// the page offers to teach it), and a photo of another game, which the page switched to (say which game it
// is, and, where the game asks for it, that teaching its deck reads its photos more surely).
import { $, el, scrollBehaviour } from "./dom.js";
import { parseCityText } from "./city.js";
import { gameOf } from "./gamepage.js";
// A deck has 18 cards of 2 × 2 blocks: laid side by side they fill 72 cells. A finished city of 18 cards
// shows all 72 only if no card overlaps another (its cards overlap: it shows far fewer).
const DECK_CELLS = 72;

// The cards the scanner placed (data.placements: their top-left cells) tile the grid on its 2 × 2 lattice
// without overlap, as the cards of a deck laid out do (a city's cards overlap or sit half a card apart).
function tiled(placements) {
  const taken = new Set();
  for (const p of placements) {
    if (p.row % 2 || p.col % 2) return false;
    for (const [dr, dc] of [[0, 0], [0, 1], [1, 0], [1, 1]]) {
      const at = `${p.row + dr},${p.col + dc}`;
      if (taken.has(at)) return false;
      taken.add(at);
    }
  }
  return true;
}

// A scan whose "city" is a whole rectangle of at least 72 cells, no cell empty, with its cards side by side:
// the photo of a deck laid out (e.g. 12 × 6), not a city.
export function looksLikeDeck(data) {
  const rows = parseCityText(data.city || "").rows;
  const cells = rows.flat();
  const width = rows.length ? rows[0].length : 0;
  const full = rows.every((row) => row.length === width) && cells.every((t) => t !== ".");
  return full && cells.length >= DECK_CELLS && tiled(data.placements || []);
}

export function clearScanNote() {
  $("#scan-note").hidden = true;
  $("#scan-note").replaceChildren();
}

// The photo scanned goes to "7 · Teach your deck", ready to be taught with one tap.
function teachFrom(file) {
  const input = $("#deck-photo");
  const files = new DataTransfer();
  files.items.add(file);
  input.files = files.files;
  input.dispatchEvent(new Event("change", { bubbles: true }));
  $("#deck-card").scrollIntoView({ block: "start", behavior: scrollBehaviour() });
  $("#deck-teach").focus({ preventScroll: true });
}

function deckNote(file, face, switched) {
  const { title, grid_word: what } = face.info;
  const button = el("button", { type: "button", id: "scan-note-teach", class: "primary", text: "Teach this photo as my deck" });
  button.addEventListener("click", () => teachFrom(file));
  const moved = switched ? ` (they are ${title} cards: the page has switched to ${title})` : "";
  return [
    el("p", { class: "scan-note-head", text: `This photo looks like your deck laid out, not a finished ${what}: ` +
      `18 whole cards side by side, none overlapping${moved}. Its score below means nothing.` }),
    el("p", { text: "To teach the scanner your own cards with it, send it to 7 · Teach your deck." }),
    button,
  ];
}

function switchedNote(face, taught) {
  const { title, grid_word: what } = face.info;
  const out = [el("p", { class: "scan-note-head", text: `This photo is a ${title} ${what}: the page has switched to ${title}.` })];
  if (face.words.untaught && !taught) {
    out.push(el("p", {}, "It was read without your own cards: ",
      el("a", { href: "#deck-card", text: "teach the scanner your deck" }), ` (7 · Teach your deck) ${face.words.untaught}`));
  }
  return out;
}

// After a scan is on the page: `data` its answer, `file` the photo, `switched` whether the page changed game.
export function renderScanNote(data, file, switched) {
  const face = gameOf(data.game);
  let parts = [];
  if (file && looksLikeDeck(data)) parts = deckNote(file, face, switched);
  else if (switched) parts = switchedNote(face, Boolean(data.taught_deck));
  const box = $("#scan-note");
  box.replaceChildren(...parts);
  box.hidden = !parts.length;
}
