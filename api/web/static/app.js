// sprawlscan page: upload a photo, correct the city read (tap a cell, or paint many), pick the cards,
// score, check a hand tally. Plain ES modules, no build step; the server is the only source of truth for
// scores: this page edits the city (rows of cell tokens in the city text format) and shows the answers.
// The games come from the server (/api/v1/meta), each with its own part of the page (gamepage.js).
import { $, el, emit, on, scrollBehaviour } from "./dom.js";
import { parseCityText } from "./city.js";
import { api } from "./api.js";
import { choices, game, gameOf, games, knownGame, loadGames, scoreBody } from "./gamepage.js";
import { cityText, key, state } from "./state.js";
import { flashCells, renderGrid, wireGrid, paintCell } from "./grid.js";
import { renderPalette, wirePalette } from "./paint.js";
import { openEditor, wireEditor } from "./editor.js";
import { hidePhoto, renderOverlay, wireOverlay } from "./overlay.js";
import { renderBreakdown, renderUnscored, showError, wireBreakdown } from "./breakdown.js";
import { adoptDoubts, clearDoubts, renderDoubts, restoreDoubts, wireDoubts } from "./doubt.js";
import { mountChoices, renderChoices } from "./choices.js";
import { checkTally } from "./tally.js";
import { dropPhotoCards, forgetScan, renderPhotoHint, renderProvenance, renderWarnings, restorePhoto, scan } from "./scan.js";
import { forgetGame } from "./reset.js";
import { wireCamera } from "./camera.js";
import { loadDraft, loadMeta, saveDraft, saveMeta } from "./storage.js";
import { pageWords } from "./wording.js";
// Each further part of the page (e.g. a game history) is its own module, imported here and listed in sw.js.

function renderCity() {
  renderGrid();
  renderOverlay();
  renderDoubts();
  if (state.rows.length) $("#city-text").value = cityText(); // else keep the example or what was typed
}

// `typed`: the city text as the player typed it, sent as it is so that an error names its line and column
// in that text (the page's own spelling of it leaves header lines out) and shows beside the button pressed.
async function rescore({ typed = null } = {}) {
  saveDraft({ tally: $("#tally").value });
  if (!state.rows.length) return;
  const seq = ++state.seq;
  $("#city-text").value = typed === null ? cityText() : typed;
  const body = scoreBody();
  if (typed !== null) body.city = typed;
  try {
    const bd = await api("/api/v1/score", body);
    if (seq !== state.seq) return;
    $("#text-error").hidden = true;
    adoptCanonicalGrid(bd.city);
    renderBreakdown(bd);
    renderProvenance();
    renderCity();
    announceScore(bd);
  } catch (err) {
    if (seq !== state.seq) return;
    if (typed === null) showError(err);
    else showTextError(err);
  }
}

// An error in the typed city: under "Score this city", where the player is looking; the score of the last
// city is hidden, as it no longer matches.
function showTextError(err) {
  $("#result").hidden = true;
  $("#sticky").hidden = true;
  $("#error").hidden = true;
  const box = $("#text-error");
  box.textContent = pageWords(err.message || String(err));
  box.hidden = false;
  box.scrollIntoView({ block: "nearest", behavior: scrollBehaviour() });
}

// A new game on the page (a new photo, or a typed city in place of a scanned, saved or reopened one): the
// last game's tally, its comparison, label and players are not this one's. Retyping an unsaved typed city
// (a correction) keeps what was written for it; only the comparison, now stale, goes.
function startNewGame(origin) {
  const correcting = origin === "typed" && state.origin === "typed" && !state.gameSaved;
  $("#tally-result").replaceChildren();
  if (!correcting) {
    $("#tally").value = "";
    document.dispatchEvent(new CustomEvent("sprawlscan:new-game"));
  }
  state.origin = origin;
  state.gameSaved = false;
}

// The server answers with the city in canonical spelling ("R:ES" typed → "R:SE"): show the grid that way.
function adoptCanonicalGrid(text) {
  const parsed = parseCityText(text, game().choices.owns);
  const same = parsed.rows.length === state.rows.length && parsed.rows.every((row, r) => row.join(" ") === state.rows[r].join(" "));
  if (same || !parsed.rows.length) return;
  state.rows = parsed.rows;
  state.interstate = parsed.interstate;
}

// `from`: where the text comes from. A typed city's cards line gives the cards; a scan's or a saved game's
// says the cards the caller set already (read from the photo, or saved), so it keeps where they came from.
function adoptCity(text, from = "text") {
  const parsed = parseCityText(text, game().choices.owns);
  state.rows = parsed.rows;
  state.interstate = parsed.interstate;
  state.headers = parsed.headers;
  game().choices.fromHeaders(choices(), parsed.owned, from);
  state.selected = null;
  renderCity();
  renderChoices();
}

// A scan's answer on the page: its city, its cards (set by scan.js), the score with where the cards came
// from, the scan's warnings and doubtful cells beside it; a photo to retake has its city and no score.
function adoptScan(data) {
  const name = knownGame(data.game);
  if (name !== state.game) { // the scanner tells the game: the page follows it, keeping this scan
    const scanId = state.scanId;
    $(`input[name="game"][value="${name}"]`).checked = true;
    setGame(name);
    state.scanId = scanId;
  }
  startNewGame("photo");
  // This photo's own choices (its scoring cards: the player's, when they picked them for it), else none.
  game().choices.fromScan(choices(), data);
  adoptCity(data.city, "scan");
  state.scanned = new Map(state.rows.flatMap((row, r) => row.map((t, c) => [key(r, c), t])));
  adoptDoubts(data);
  const scored = !state.retake && Number.isFinite(data.total) && Array.isArray(data.items);
  renderChoices();
  if (scored) renderBreakdown(data); else renderUnscored();
  renderProvenance();
  renderWarnings();
  renderCity();
  if (scored) announceScore(data);
  saveDraft({ tally: $("#tally").value });
  // A game whose photo is scored without the choices on the page (a town's goal cards) is scored with them now.
  if (game().choices.rescoreAfterScan(choices(), data)) rescore();
}

function editGrid(action) {
  const cols = state.rows[0].length;
  if (action === "add-row") state.rows.push(Array(cols).fill("."));
  if (action === "add-col") state.rows.forEach((row) => row.push("."));
  if (action === "del-row" && state.rows.length > 1) state.rows.pop();
  if (action === "del-col" && cols > 1) state.rows.forEach((row) => row.pop());
  if (state.interstate !== null && state.interstate >= state.rows.length) state.interstate = null;
  renderCity();
  rescore();
}

// The game on the page: its words, its grid's tools and its choices (gamepage.js: the game's face).
function setGame(name, { keep = false } = {}) {
  state.game = name;
  if (!keep) {
    Object.assign(state, { rows: [], interstate: null, headers: [], scanId: null, breakdown: null, scanned: null });
    clearDoubts();
    state.highlight = new Set();
    state.highlightKey = null;
  }
  state.brush = null;
  showWords(game());
  $("#result").hidden = true;
  $("#error").hidden = true;
  $("#sticky").hidden = true;
  $("#tally-result").replaceChildren();
  if (!keep) {
    $("#city-text").value = game().example;
    hidePhoto();
  }
  $("#text-box").open = Boolean(game().startsTyped) && !state.rows.length;
  renderPhotoHint();
  renderPalette();
  renderCity();
  renderChoices();
}

// The page's headings and hints in the game's words (the hints are the game's own HTML).
function showWords(face) {
  const words = face.words;
  $("#lead").textContent = words.lead;
  $("#city-h").textContent = words.heading;
  $("#text-box summary").textContent = words.typeIt;
  $("#score-text").textContent = words.score;
  $("#grid-hint-text").textContent = words.empty;
  $("#text-hint").innerHTML = words.textHint;
  $("#tally-hint").innerHTML = words.tallyHint;
  $("#deck-game-note").hidden = !words.deckNote;
  $("#deck-game-note").textContent = words.deckNote || "";
  $("#interstate-box").hidden = !face.interstate;
  $("#empty-grid").hidden = !face.cells.brushes().length; // an empty grid is painted: no brushes, no grid
}

// One radio per game the server offers, in its order; the first is chosen until the player picks.
function buildGameSwitch() {
  $("#game-switch").replaceChildren(...games().map(({ info }) => el("label", {},
    el("input", { type: "radio", name: "game", value: info.name }), el("span", { text: info.title }))));
  $('input[name="game"]').checked = true;
}

function startEmptyGrid() {
  state.scanId = null;
  state.scanned = null;
  clearDoubts();
  hidePhoto();
  state.rows = Array.from({ length: 6 }, () => Array(8).fill("."));
  state.interstate = null;
  state.brush = game().firstBrush;
  renderPalette();
  renderCity();
  $("#city-h").scrollIntoView({ behavior: scrollBehaviour() });
}

function setConnection(ok) {
  $("#offline").hidden = ok;
}

function wire() {
  for (const input of [$("#photo"), $("#photo-library")]) {
    input.addEventListener("change", (e) => {
      const file = e.target.files && e.target.files[0];
      if (file) scan(file, adoptScan).then(renderChoices);
      e.target.value = "";
    });
  }
  wireCamera((file) => scan(file, adoptScan).then(renderChoices)); // the live camera's photo, scanned as a file
  wireGrid();
  wirePalette();
  wireEditor();
  wireOverlay();
  wireBreakdown();
  wireDoubts();
  on("cell-tapped", ({ r, c }) => {
    state.selected = key(r, c);
    if (state.brush) { paintCell(r, c); return; }
    renderCity();
    openEditor(r, c);
  });
  on("city-edited", (detail) => {
    renderCity();
    rescore();
    const focus = detail && detail.focus;
    if (focus) { const btn = $(`#grid .cell[data-row="${focus[0]}"][data-col="${focus[1]}"]`); if (btn) btn.focus(); }
  });
  on("paint-mode", () => renderCity());
  on("choices-changed", () => rescore());
  on("highlight", ({ scroll }) => {
    renderCity();
    if (!scroll) return;
    $(".grid-wrap").scrollIntoView({ block: "center", behavior: scrollBehaviour() });
    flashCells();
  });
  on("connection", setConnection);
  window.addEventListener("online", () => setConnection(true));
  window.addEventListener("offline", () => setConnection(false));
  $("#grid-tools").addEventListener("click", (e) => {
    const btn = e.target.closest("button[data-grid]");
    if (btn) editGrid(btn.dataset.grid);
  });
  $("#interstate").addEventListener("change", (e) => {
    state.interstate = e.target.value === "" ? null : Number(e.target.value);
    renderCity();
    rescore();
  });
  $("#score-text").addEventListener("click", () => {
    const typed = $("#city-text").value;
    startNewGame("typed");
    forgetScan();
    dropPhotoCards();
    adoptCity(typed);
    $("#text-error").hidden = true;
    if (!state.rows.length) { showTextError(new Error("The text holds no rows of cells.")); return; }
    rescore({ typed });
  });
  $("#no-photo").addEventListener("click", () => {
    $("#text-box").open = true;
    $("#city-h").scrollIntoView({ block: "start", behavior: scrollBehaviour() });
  });
  $("#empty-grid").addEventListener("click", startEmptyGrid);
  $("#start-over").addEventListener("click", () => { forgetGame(); setGame(state.game); });
  $("#check").addEventListener("click", checkTally);
  $("#tally").addEventListener("change", () => saveDraft({ tally: $("#tally").value }));
  document.addEventListener("sprawlscan:saved", () => { state.gameSaved = true; });
  $("#game-switch").addEventListener("change", (e) => setGame(e.target.value));
}

// ---- hooks for games.js (saved games, history, statistics: an ES module of its own) ----------------------

function announceScore(bd) {
  const detail = { request: scoreBody(), breakdown: bd, scanId: state.scanId };
  document.dispatchEvent(new CustomEvent("sprawlscan:scored", { detail }));
}

function restoreGame({ request, scanId }) {
  const name = knownGame(request.game);
  $(`input[name="game"][value="${name}"]`).checked = true;
  setGame(name);
  state.choicesOf[name] = game().choices.fromSaved(request);
  state.scanId = scanId || null;
  state.origin = "saved";
  adoptCity(request.city, "saved");
  rescore();
}

async function init() {
  wire();
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(() => { /* the page works without it, only not offline */ });
  }
  setConnection(navigator.onLine);
  try {
    state.meta = await api("/api/v1/meta");
    saveMeta(state.meta);
  } catch (err) {
    state.meta = loadMeta(); // offline: the lists from the last visit
    if (!state.meta) {
      showError(err);
      document.documentElement.dataset.ready = "true";
      return;
    }
  }
  await loadGames(state.meta);
  buildGameSwitch();
  mountChoices();
  const draft = loadDraft();
  if (draft && draft.rows.length) {
    const name = knownGame(draft.game);
    for (const f of ["rows", "interstate", "headers", "scanId", "origin"]) {
      if (draft[f] !== undefined) state[f] = draft[f];
    }
    // A draft kept by an older page has its game's choices at its top level: the game reads them there.
    state.choicesOf = draft.choicesOf || { [name]: gameOf(name).choices.restore(draft) };
    $(`input[name="game"][value="${name}"]`).checked = true;
    $("#tally").value = draft.tally || "";
    const scorable = restoreDoubts(draft);
    setGame(name, { keep: true });
    document.documentElement.dataset.restored = "draft"; // games.js then leaves the page as it is
    if (scorable) rescore(); else renderUnscored();
    restorePhoto();
  } else {
    // The browser may restore the game chosen before a reload.
    setGame($('input[name="game"]:checked').value);
  }
  document.addEventListener("sprawlscan:restore", (e) => restoreGame(e.detail));
  document.dispatchEvent(new CustomEvent("sprawlscan:ready"));
  emit("ready");
  document.documentElement.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", init);
