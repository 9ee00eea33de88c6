// sprawlscan page, "Teach your deck": photograph your own 18 cards face up in a grid (one photo, or two for a
// big table); the server finds each card, says which it is and how it lies, and reads this device's later
// scans with what it learned. The cards are shown on the photo and as a grid for the player to check; a
// card tapped can be corrected (to what the deck's game offers: gamepage.js, deckChoices) and the
// corrections are sent together (PATCH), since two cards mixed up need both. Other cards lying beside the
// 18 (a game's deckExtras) are named before teaching. "Forget my deck" removes it. An ES module of its own,
// using the page's device token (api.js; the deck is kept with the saved games). The 18 cards may be any
// game's (the server tells which from the photo; a deck is used for photos of its own game only). A device
// keeps one deck of each game side by side: the decks kept are listed one line per game, each can be shown
// (to check and correct it) or forgotten on its own; the games kept are set on the page's root
// (data-deck-games) and announced ("sprawlscan:deck") for a game's photo hint.
import { deviceCall, keptToken } from "./api.js";
import { gameOf, games, knownGame } from "./gamepage.js";

const $ = (sel) => document.querySelector(sel);
// The other cards a deck photo may hold beside the 18, every game's (gamepage.js: deckExtras):
// name -> {label, short}.
let extraKinds = {};
const kindLabel = (name) => (extraKinds[name] || {}).label;
const kindShort = (name) => (extraKinds[name] || {}).short;
const titleOf = (name) => gameOf(name).info.title;
const photosOf = (name) => gameOf(name).info.grid_word;
let current = null; // the shown deck's cards as the server last answered
let game = null; // the game whose cards the shown deck holds
let kept = []; // the decks this device keeps: [{game, taught_at}], one per game
let drawn = new Map(); // place → the label the overlay picture shows
let pending = new Map(); // place → correction not yet sent
let editing = null; // the card the picker is open for
let asked = null; // the place of the card teaching asked the player to name (its answer is always sent)
const extras = []; // expansion cards named for the next teaching

const key = (c) => `${c.photo},${c.row},${c.col}`;
const where = (c, many) => `${many ? `photo ${c.photo + 1}, ` : ""}row ${c.row + 1}, card ${c.col + 1}`;
const NONE = "none"; // a place said to hold no card ("card": null), where the game offers it
const label = (c) => (c.extra ? kindShort(c.extra) : c.card === null ? "–" : `${c.card}${c.rotated ? "r" : ""}`);
const shown = (c) => (c.extra ? kindShort(c.extra) : c.card === null ? "–" : `${c.card}${c.rotated ? " ⟲" : ""}`);
const said = (f) => (f.extra ? kindLabel(f.extra) : f.card === null ? "not a card" : `card ${f.card}${f.rotated ? " turned round" : ""}`);
const manyPhotos = () => Boolean(current && new Set(current.map((c) => c.photo)).size > 1);
const svgNS = "http://www.w3.org/2000/svg";

// The deck is the device's: every call carries the page's one device token (api.js).
async function call(method, body, which) {
  const url = which ? `/api/v1/deck?game=${encodeURIComponent(which)}` : "/api/v1/deck";
  try {
    return await deviceCall(method, url, body);
  } catch (err) {
    if (err.status === 404 && err.code === "deck_not_found") return null;
    throw err;
  }
}

function status(text, isError = false) {
  const box = isError ? $("#deck-error") : $("#deck-status");
  $("#deck-error").hidden = true;
  $("#deck-status").hidden = true;
  box.hidden = !text;
  box.textContent = text || "";
}

// The photo(s) as the server drew them, with a tap target over each card; a card whose label changed since
// the picture was drawn (or waits to be sent) gets its new label drawn over it.
function drawOverlays(urls) {
  const out = $("#deck-overlays");
  out.replaceChildren();
  (urls || []).forEach((url, photo) => {
    const box = document.createElement("div");
    box.className = "deck-overlay";
    const img = document.createElement("img");
    img.alt = `Photo ${photo + 1} with the cards found`;
    const svg = document.createElementNS(svgNS, "svg");
    box.dataset.photo = String(photo);
    img.addEventListener("load", () => {
      svg.setAttribute("viewBox", `0 0 ${img.naturalWidth} ${img.naturalHeight}`);
      svg.dataset.ready = "1";
      marks();
    });
    img.src = url;
    box.append(img, svg);
    out.append(box);
  });
}

function marks() {
  for (const box of document.querySelectorAll(".deck-overlay")) {
    const svg = box.querySelector("svg");
    const img = box.querySelector("img");
    if (!svg.dataset.ready || !current) continue;
    svg.replaceChildren();
    const w = img.naturalWidth;
    const h = img.naturalHeight;
    for (const card of current.filter((c) => String(c.photo) === box.dataset.photo && c.outline)) {
      const pts = card.outline.map(([x, y]) => [x * w, y * h]);
      const poly = document.createElementNS(svgNS, "polygon");
      poly.setAttribute("points", pts.map((p) => p.join(",")).join(" "));
      poly.dataset.place = key(card);
      const fix = pending.get(key(card));
      const now = fix ? label(fix) : label(card);
      if (fix) poly.classList.add("pending");
      poly.addEventListener("click", () => pick(card));
      const title = document.createElementNS(svgNS, "title");
      title.textContent = `${where(card, manyPhotos())}: ${now}`;
      poly.append(title);
      svg.append(poly);
      if (now !== drawn.get(key(card))) {
        const cx = pts.reduce((s, p) => s + p[0], 0) / 4;
        const cy = pts.reduce((s, p) => s + p[1], 0) / 4;
        const text = document.createElementNS(svgNS, "text");
        text.setAttribute("x", String(cx));
        text.setAttribute("y", String(cy));
        text.setAttribute("text-anchor", "middle");
        text.setAttribute("dominant-baseline", "middle");
        text.setAttribute("font-size", String(Math.max(14, h / 18)));
        text.setAttribute("fill", "#f2c14e");
        text.setAttribute("stroke", "#000");
        text.setAttribute("stroke-width", "3");
        text.setAttribute("paint-order", "stroke");
        text.setAttribute("pointer-events", "none");
        text.textContent = now;
        svg.append(text);
      }
    }
  }
}

// The cards as the player laid them: one table per photo, "7 ⟲" for card 7 turned round; each a button.
function grid() {
  const out = $("#deck-cards");
  out.replaceChildren();
  if (!current) return;
  const photos = [...new Set(current.map((c) => c.photo))].sort();
  for (const photo of photos) {
    const cards = current.filter((c) => c.photo === photo);
    const rows = Math.max(...cards.map((c) => c.row)) + 1;
    const cols = Math.max(...cards.map((c) => c.col)) + 1;
    const table = document.createElement("table");
    table.className = "deck-grid";
    if (photos.length > 1) table.createCaption().textContent = `Photo ${photo + 1}`;
    for (let r = 0; r < rows; r++) {
      const tr = table.insertRow();
      for (let c = 0; c < cols; c++) {
        const td = tr.insertCell();
        const card = cards.find((k) => k.row === r && k.col === c);
        if (!card) {
          td.textContent = "·";
          continue;
        }
        const fix = pending.get(key(card));
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = shown(fix || card);
        button.title = `${where(card, photos.length > 1)}: tap to correct`;
        button.dataset.place = key(card);
        button.addEventListener("click", () => pick(card));
        if (fix) td.classList.add("pending");
        td.append(button);
      }
    }
    out.append(table);
  }
}

function render() {
  grid();
  marks();
  const many = manyPhotos();
  const list = [...pending.values()].map((f) => `${where(f, many)} → ${said(f)}`);
  $("#deck-pending").hidden = !list.length;
  $("#deck-pending").textContent = list.length ? `To send: ${list.join("; ")}` : "";
  $("#deck-fix-send").hidden = !list.length;
  $("#deck-fix-send").textContent = list.length > 1 ? `Send ${list.length} corrections` : "Send correction";
}

const gameOrder = () => games().map((g) => g.info.name);
const byGame = () => [...kept].sort((x, y) => gameOrder().indexOf(x.game) - gameOrder().indexOf(y.game));

function showGame() {
  const node = $("#deck-game");
  node.hidden = !game;
  node.textContent = game ? `Your deck: ${titleOf(game)} cards, used for your ${photosOf(game)} photos.` : "";
  document.documentElement.dataset.deckGames = byGame().map((d) => d.game).join(" ");
  window.dispatchEvent(new Event("sprawlscan:deck"));
}

// One line per deck kept: its game, when it was taught, which photos it reads; "Show" brings its cards up
// to check or correct, "Forget" removes that deck only.
function showKept() {
  const out = $("#deck-kept");
  out.replaceChildren();
  out.hidden = !kept.length;
  for (const d of byGame()) {
    const li = document.createElement("li");
    li.dataset.game = d.game;
    const when = d.taught_at ? `, taught ${new Date(d.taught_at).toLocaleDateString()}` : "";
    const text = document.createElement("span");
    text.textContent = `${titleOf(d.game)} deck${when}: used for your ${photosOf(d.game)} photos.`;
    li.append(text);
    const view = document.createElement("button");
    view.type = "button";
    view.textContent = d.game === game ? "Shown" : "Show";
    view.disabled = d.game === game;
    view.addEventListener("click", () => call("GET", undefined, d.game).then((x) => show(x, [])).catch((e) => status(e.message, true)));
    const drop = document.createElement("button");
    drop.type = "button";
    drop.className = "deck-kept-forget";
    drop.textContent = "Forget";
    drop.addEventListener("click", () => forget(d.game));
    li.append(" ", view, " ", drop);
    out.append(li);
  }
}

function fixOptions() {
  const cards = $("#deck-fix-card");
  cards.replaceChildren();
  if (!game) return;
  for (const { value, label: text } of gameOf(game).deckChoices()) cards.add(new Option(text, value));
}

function show(deck, overlays) {
  current = deck ? deck.cards : null;
  game = deck ? knownGame(deck.game) : null;
  if (deck) kept = deck.kept || [{ game, taught_at: deck.taught_at }];
  else kept = [];
  pending = new Map();
  asked = null;
  closePicker();
  fixOptions();
  showGame();
  showKept();
  $("#deck-forget").hidden = !deck;
  $("#deck-none").hidden = Boolean(deck);
  $("#deck-fix-hint").hidden = !deck;
  if (overlays !== undefined) {
    drawn = new Map((current || []).map((c) => [key(c), label(c)]));
    drawOverlays(deck ? overlays : []);
  }
  render();
}

function pick(card) {
  editing = card;
  const fix = pending.get(key(card)) || card;
  $("#deck-fix-place").textContent = `The card at ${where(card, manyPhotos())}`;
  $("#deck-fix-card").value = fix.extra || (fix.card === null ? NONE : String(fix.card));
  $("#deck-fix-turned").checked = Boolean(!fix.extra && fix.card !== null && fix.rotated);
  $("#deck-fix").hidden = false;
  $("#deck-fix-card").focus();
}

// The cards' look named them only up to one question (which of three namings of the zones): the player
// names the one card asked about, and the correction names every other card.
function askFor(ask) {
  const card = current.find((c) => c.photo === ask.photo && c.row === ask.row && c.col === ask.col);
  asked = card ? key(card) : null;
  status(`Your 18 cards are found, but their colours leave one question: which card lies at ${where(ask, manyPhotos())}? ` +
    `(It was taken for card ${ask.taken}.) Say which it is and send it: every other card follows.`);
  if (card) pick(card);
}

function closePicker() {
  editing = null;
  $("#deck-fix").hidden = true;
}

function setFix(event) {
  event.preventDefault();
  if (!editing) return;
  const value = $("#deck-fix-card").value;
  const place = { photo: editing.photo, row: editing.row, col: editing.col };
  let fix;
  if (kindLabel(value)) fix = { ...place, extra: value };
  else if (value === NONE) fix = { ...place, card: null, rotated: false };
  else fix = { ...place, card: Number(value), rotated: $("#deck-fix-turned").checked };
  const same = fix.extra ? editing.extra === fix.extra : !editing.extra && editing.card === fix.card && editing.rotated === fix.rotated;
  // The card asked about is sent even when the player confirms what it was taken for: the answer settles it.
  if (same && key(editing) !== asked) pending.delete(key(editing));
  else pending.set(key(editing), fix);
  closePicker();
  render();
}

async function sendFixes() {
  const corrections = [...pending.values()];
  if (!corrections.length) return;
  $("#deck-fix-send").disabled = true;
  try {
    const deck = await call("PATCH", JSON.stringify({ corrections }), game);
    show(deck);
    status("Corrected: your scans now read with the corrected deck.");
  } catch (err) {
    status(err.message || String(err), true);
  } finally {
    $("#deck-fix-send").disabled = false;
  }
}

function showExtras() {
  const out = $("#deck-extras");
  out.replaceChildren();
  extras.forEach((e, i) => {
    const li = document.createElement("li");
    li.textContent = `${where(e, true)}: ${kindLabel(e.extra)} `;
    const remove = document.createElement("button");
    remove.type = "button";
    remove.textContent = "Remove";
    remove.addEventListener("click", () => { extras.splice(i, 1); showExtras(); });
    li.append(remove);
    out.append(li);
  });
}

function addExtra() {
  const e = {
    photo: Number($("#deck-extra-photo").value),
    row: Number($("#deck-extra-row").value) - 1,
    col: Number($("#deck-extra-col").value) - 1,
    extra: $("#deck-extra-kind").value,
  };
  if (!(e.row >= 0 && e.col >= 0)) {
    status("Rows and cards count from 1.", true);
    return;
  }
  const i = extras.findIndex((x) => key(x) === key(e));
  if (i >= 0) extras.splice(i, 1);
  extras.push(e);
  showExtras();
}

// A refusal that names a card more than the 18 offers to name it: its place is filled in.
function offerExtra(message) {
  const m = /extra at (?:photo (\d+) )?row (\d+) card (\d+)/.exec(message);
  if (!m) return;
  $("#deck-extra-photo").value = String(m[1] ? Number(m[1]) - 1 : 0);
  $("#deck-extra-row").value = m[2];
  $("#deck-extra-col").value = m[3];
  openExtras(true);
}

function openExtras(open) {
  $("#deck-extras-box").hidden = !open;
  $("#deck-extras-toggle").setAttribute("aria-expanded", String(open));
}

async function teach() {
  const files = [$("#deck-photo").files[0], $("#deck-photo-2").files[0]].filter(Boolean);
  if (!files.length) {
    status("Choose a photo of your cards first.", true);
    return;
  }
  const form = new FormData();
  form.append("image", files[0], files[0].name || "deck.jpg");
  if (files[1]) form.append("image2", files[1], files[1].name || "deck-2.jpg");
  if (extras.length) form.append("extras", JSON.stringify(extras));
  $("#deck-teach").disabled = true;
  status("Finding your cards…");
  try {
    const deck = await call("POST", form);
    show(deck, deck.overlays);
    if (deck.ask) askFor(deck.ask);
    else status(gameOf(knownGame(deck.game)).taughtMessage(deck));
  } catch (err) {
    status(err.message || String(err), true);
    offerExtra(err.message || "");
  } finally {
    $("#deck-teach").disabled = false;
  }
}

// Forget one game's deck (the one shown, or a kept line's); the other game's deck stays and is shown.
async function forget(which = game) {
  try {
    await call("DELETE", undefined, which);
    const left = await call("GET");
    show(left, []);
    const photos = `${photosOf(which)} photos`;
    status(`Your ${titleOf(which)} deck is forgotten: your ${photos} read as before.`);
  } catch (err) {
    status(err.message || String(err), true);
  }
}

function chosen() {
  const names = [$("#deck-photo").files[0], $("#deck-photo-2").files[0]].filter(Boolean).map((f) => f.name);
  $("#deck-files").textContent = names.length ? `Chosen: ${names.join(", ")}` : "";
}

// The other cards the games' decks may hold, offered to be named before teaching (none: no such offer).
function extraOptions() {
  extraKinds = Object.assign({}, ...games().map((g) => g.deckExtras || {}));
  const names = Object.values(extraKinds).map((k) => k.label);
  $("#deck-extras-toggle").hidden = !names.length;
  $("#deck-extras-hint").textContent = `${names.join(", ")} lying beside the 18: say where (row, and which card ` +
    "in that row, counted from 1) and the scanner learns it too.";
  for (const [value, kind] of Object.entries(extraKinds)) $("#deck-extra-kind").add(new Option(kind.label, value));
}

// Once the page knows the games (app.js says "sprawlscan:ready").
document.addEventListener("sprawlscan:ready", () => {
  extraOptions();
  // Only a device that already has a token can have a deck: no token is made just to look.
  if (keptToken()) call("GET").then((d) => show(d, [])).catch((err) => status(err.message, true));
});

document.addEventListener("DOMContentLoaded", () => {
  $("#deck-photo").addEventListener("change", chosen);
  $("#deck-photo-2").addEventListener("change", chosen);
  $("#deck-teach").addEventListener("click", teach);
  $("#deck-forget").addEventListener("click", () => forget());
  $("#deck-fix").addEventListener("submit", setFix);
  $("#deck-fix-cancel").addEventListener("click", closePicker);
  $("#deck-fix-send").addEventListener("click", sendFixes);
  $("#deck-extra-add").addEventListener("click", addExtra);
  $("#deck-extras-toggle").addEventListener("click", () => openExtras($("#deck-extras-box").hidden));
});
