// sprawlscan page: upload a photo, correct the city read (tap a cell, or paint many), pick the cards,
// score, check a hand tally. Plain ES modules, no build step; the server is the only source of truth for
// scores: this page edits the city (rows of cell tokens in the city text format) and shows the answers.
import { $, $$, emit, on, scrollBehaviour } from "./dom.js";
import { EXAMPLES, parseCityText } from "./city.js";
import { api } from "./api.js";
import { cityText, isGoalId, key, scoreBody, state } from "./state.js";
import { flashCells, renderGrid, wireGrid, paintCell } from "./grid.js";
import { renderPalette, wirePalette } from "./paint.js";
import { openEditor, wireEditor } from "./editor.js";
import { hidePhoto, renderOverlay, wireOverlay } from "./overlay.js";
import { renderBreakdown, renderUnscored, showError, wireBreakdown } from "./breakdown.js";
import { adoptDoubts, clearDoubts, renderDoubts, restoreDoubts, wireDoubts } from "./doubt.js";
import { renderCardInfo, renderChips, renderGoals, wireChoices } from "./cards.js";
import { checkTally } from "./tally.js";
import { dropPhotoCards, forgetScan, renderProvenance, renderTownHint, renderWarnings, restorePhoto, scan } from "./scan.js";
import { forgetGame } from "./reset.js";
import { wireCamera } from "./camera.js";
import { loadDraft, loadMeta, saveDraft, saveMeta } from "./storage.js";
import { pageWords } from "./wording.js";
// Each further part of the page (e.g. a game history) is its own module, imported here and listed in sw.js.

const WORDS = {
  sprawlopolis: {
    lead: "Photograph your finished city, fix anything misread, get the score.",
    city: "2 · City", type: "Type or paste a city", score: "Score this city",
    empty: "No city yet: scan a photo, type one below, or start an empty grid and paint it.",
  },
  wagons: {
    lead: "Photograph or type in your finished town, fix anything, get the score and check your tally.",
    city: "2 · Town", type: "Type or paste a town", score: "Score this town",
    empty: "No town yet: scan a photo, type one below, or start an empty grid and paint it.",
  },
};

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
  const parsed = parseCityText(text, state.game, isGoalId);
  const same = parsed.rows.length === state.rows.length && parsed.rows.every((row, r) => row.join(" ") === state.rows[r].join(" "));
  if (same || !parsed.rows.length) return;
  state.rows = parsed.rows;
  state.interstate = parsed.interstate;
}

// `from`: where the text comes from. A typed city's cards line gives the cards; a scan's or a saved game's
// says the cards the caller set already (read from the photo, or saved), so it keeps where they came from.
function adoptCity(text, from = "text") {
  const parsed = parseCityText(text, state.game, isGoalId);
  state.rows = parsed.rows;
  state.interstate = parsed.interstate;
  state.headers = parsed.headers;
  if (parsed.cards && parsed.cards.length && from === "text") { state.cards = parsed.cards; state.cardsFrom = "text"; }
  if (parsed.expansions) state.expansions = parsed.expansions;
  if (parsed.goals) state.goals = parsed.goals;
  if (parsed.scenario !== undefined) state.scenario = parsed.scenario;
  if (parsed.pile !== undefined) state.pile = parsed.pile;
  state.selected = null;
  renderCity();
  if (state.game === "wagons") renderGoals(); else renderChips();
}

// A scan's answer on the page: its city, its cards (set by scan.js), the score with where the cards came
// from, the scan's warnings and doubtful cells beside it; a photo to retake has its city and no score.
function adoptScan(data) {
  const game = data.game === "wagons" ? "wagons" : "sprawlopolis";
  if (game !== state.game) { // the scanner tells the game: the page follows it, keeping this scan
    const scanId = state.scanId;
    $(`input[name="game"][value="${game}"]`).checked = true;
    setGame(game);
    state.scanId = scanId;
  }
  startNewGame("photo");
  adoptCity(data.city, "scan");
  state.scanned = new Map(state.rows.flatMap((row, r) => row.map((t, c) => [key(r, c), t])));
  adoptDoubts(data);
  const scored = !state.retake && Number.isFinite(data.total) && Array.isArray(data.items);
  if (game === "sprawlopolis") renderChips();
  if (scored) renderBreakdown(data); else renderUnscored();
  renderProvenance();
  renderWarnings();
  renderCity();
  if (scored) announceScore(data);
  saveDraft({ tally: $("#tally").value });
  // A town comes scored with no goal cards: the goals picked on the page score it now.
  const same = JSON.stringify(data.goals || []) === JSON.stringify(state.goals);
  if (game === "wagons" && !same) rescore();
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

function setGame(game, { keep = false } = {}) {
  state.game = game;
  if (!keep) {
    Object.assign(state, { rows: [], interstate: null, headers: [], scanId: null, breakdown: null, scanned: null });
    clearDoubts();
    state.highlight = new Set();
    state.highlightKey = null;
  }
  state.brush = null;
  const words = WORDS[game];
  for (const node of $$(".sprawl-only")) node.hidden = game !== "sprawlopolis";
  for (const node of $$(".wagons-only")) node.hidden = game !== "wagons";
  $("#lead").textContent = words.lead;
  $("#city-h").textContent = words.city;
  $("#text-box summary").textContent = words.type;
  $("#score-text").textContent = words.score;
  $("#grid-hint-text").textContent = words.empty;
  $("#result").hidden = true;
  $("#error").hidden = true;
  $("#sticky").hidden = true;
  $("#tally-result").replaceChildren();
  if (!keep) {
    $("#city-text").value = EXAMPLES[game];
    hidePhoto();
  }
  $("#text-box").open = game === "wagons" && !state.rows.length;
  renderTownHint();
  renderPalette();
  renderCity();
  if (game === "wagons") renderGoals(); else renderChips();
}

function startEmptyGrid() {
  state.scanId = null;
  state.scanned = null;
  clearDoubts();
  hidePhoto();
  state.rows = Array.from({ length: 6 }, () => Array(8).fill("."));
  state.interstate = null;
  state.brush = state.game === "wagons" ? { type: "terrain", value: "D" } : { type: "zone", value: "R" };
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
      if (file) scan(file, adoptScan).then(renderChips);
      e.target.value = "";
    });
  }
  wireCamera((file) => scan(file, adoptScan).then(renderChips)); // the live camera's photo, scanned as a file
  wireGrid();
  wirePalette();
  wireEditor();
  wireOverlay();
  wireBreakdown();
  wireDoubts();
  wireChoices();
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
  for (const radio of $$('input[name="game"]')) radio.addEventListener("change", (e) => setGame(e.target.value));
}

// ---- hooks for games.js (saved games, history, statistics: an ES module of its own) ----------------------

function announceScore(bd) {
  const detail = { request: scoreBody(), breakdown: bd, scanId: state.scanId };
  document.dispatchEvent(new CustomEvent("sprawlscan:scored", { detail }));
}

function restoreGame({ request, scanId }) {
  const game = request.game === "wagons" ? "wagons" : "sprawlopolis";
  $(`input[name="game"][value="${game}"]`).checked = true;
  setGame(game);
  const o = request.options || {};
  if (game === "wagons") Object.assign(state, { goals: o.goals || [], scenario: o.scenario || "", pile: [].concat(o["opponent-pile"] || []).join(" ") });
  else Object.assign(state, { cards: request.cards || [], cardsFrom: "saved", expansions: request.expansions || [], variant: request.variant || "", options: { ...o } });
  $("#variant").value = state.variant;
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
  const draft = loadDraft();
  if (draft && draft.rows.length) {
    for (const f of ["rows", "interstate", "headers", "cards", "cardsFrom", "cardsPicked", "expansions", "options", "variant", "goals", "scenario", "pile", "scanId", "origin"]) {
      if (draft[f] !== undefined) state[f] = draft[f];
    }
    $(`input[name="game"][value="${draft.game === "wagons" ? "wagons" : "sprawlopolis"}"]`).checked = true;
    $("#tally").value = draft.tally || "";
    const scorable = restoreDoubts(draft);
    setGame(draft.game === "wagons" ? "wagons" : "sprawlopolis", { keep: true });
    document.documentElement.dataset.restored = "draft"; // games.js then leaves the page as it is
    if (scorable) rescore(); else renderUnscored();
    restorePhoto();
  } else {
    // The browser may restore the game chosen before a reload.
    setGame($('input[name="game"]:checked').value);
  }
  renderCardInfo();
  document.addEventListener("sprawlscan:restore", (e) => restoreGame(e.detail));
  document.dispatchEvent(new CustomEvent("sprawlscan:ready"));
  emit("ready");
  document.documentElement.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", init);
