// sprawlscan page, saved games: saving the game on screen, the history and the statistics, and the current
// game kept across a reload. An ES module of its own; it talks to the server as this device (api.js, the
// page's one device token) and meets the rest of the page only through DOM events on document:
//   "sprawlscan:ready"                                  the page can score (after it loaded the metadata)
//   "sprawlscan:scored"  {request, breakdown, scanId}   a score is on screen (request: the /score body)
//   "sprawlscan:restore" {request, scanId}              sent from here: put this game back on the page
import { deviceCall, privateImage } from "./api.js";
import { gameOf } from "./gamepage.js";

const CURRENT_KEY = "sprawlscan.current-game";
const HISTORY_PAGE = 20;

const $ = (sel) => document.querySelector(sel);
let current = null; // {request, breakdown, scanId} of the score on screen
let savedAs = null;  // {key, id}: the score on screen was saved as game id (key: its request as JSON)

// Read at once: the page may put its own draft back and score it before this module hears "ready".
function keptGame() {
  try { return JSON.parse(localStorage.getItem(CURRENT_KEY) || "null"); } catch { return null; }
}
savedAs = (keptGame() || {}).savedAs || null;

// ---- API ---------------------------------------------------------------------------------------------

// Every games call is the device's (its token, api.js).
async function call(method, path, body) {
  return deviceCall(method, path, body === undefined ? undefined : JSON.stringify(body));
}

function showError(err) {
  const box = $("#games-error");
  box.hidden = !err;
  box.textContent = err ? err.message || String(err) : "";
}

// ---- saving ------------------------------------------------------------------------------------------

function remember() {
  const kept = { request: current.request, scanId: current.scanId, savedAs };
  try { localStorage.setItem(CURRENT_KEY, JSON.stringify(kept)); } catch { /* storage full or off: only the reload is lost */ }
}

function onScored(detail) {
  current = detail;
  // The same game scored again (a reload, a reopened game) stays saved: no second copy by accident.
  if (savedAs && savedAs.key !== JSON.stringify(detail.request)) savedAs = null;
  remember();
  $("#save-game").hidden = false;
  $("#save-game-btn").disabled = savedAs !== null;
  $("#save-status").textContent = savedAs ? "This game is saved." : "";
}

async function saveGame(ev) {
  ev.preventDefault();
  if (!current) return;
  const players = $("#game-players").value.split(",").map((p) => p.trim()).filter(Boolean);
  const body = { ...current.request, label: $("#game-label").value.trim(), players };
  if (current.scanId) body.scan_id = current.scanId;
  $("#save-game-btn").disabled = true;
  try {
    const game = await call("POST", "/api/v1/games", body);
    savedAs = { key: JSON.stringify(current.request), id: game.id };
    remember();
    document.dispatchEvent(new CustomEvent("sprawlscan:saved"));
    $("#save-status").textContent = `Saved: ${game.total} points.`;
    showError(null);
    await refresh();
  } catch (err) {
    $("#save-game-btn").disabled = false;
    showError(err);
  }
}

// ---- history -----------------------------------------------------------------------------------------

function outcome(game) {
  return game.won === true ? ["won", "won"] : game.won === false ? ["lost", "lost"] : ["", "no target"];
}

function renderHistory(page) {
  const list = $("#history");
  list.replaceChildren();
  $("#history-empty").hidden = page.count > 0;
  $("#history-count").textContent = page.count > page.games.length ? `(newest ${page.games.length} of ${page.count})` : "";
  for (const game of page.games) {
    const li = document.createElement("li");
    li.dataset.id = game.id;
    const [cls, word] = outcome(game);
    const when = new Date(game.played_at).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
    const cards = game.cards.length ? game.cards.join(" · ") : "no scoring cards";
    li.innerHTML = `<div class="g-main"><b class="g-total"></b> <span class="g-result"></span></div>
      <div class="g-meta"></div><div class="g-buttons"><button type="button" data-open>Open</button>
      <button type="button" data-delete aria-label="Delete this game">Delete</button></div>`;
    li.querySelector(".g-total").textContent = `${game.total} points`;
    const result = li.querySelector(".g-result");
    result.className = `g-result ${cls}`;
    result.textContent = game.target === null ? word : `${word} · target ${game.target}`;
    const meta = [when, gameOf(game.game).playedWith(cards), game.label, game.players.join(", ")];
    li.querySelector(".g-meta").textContent = meta.filter(Boolean).join(" — ");
    list.append(li);
  }
}

async function onHistoryClick(ev) {
  const li = ev.target.closest("li[data-id]");
  if (!li) return;
  try {
    if (ev.target.closest("[data-delete]")) {
      if (!window.confirm("Delete this game from the history?")) return;
      await call("DELETE", `/api/v1/games/${encodeURIComponent(li.dataset.id)}`);
      await refresh();
    } else if (ev.target.closest("[data-open]")) {
      const game = await call("GET", `/api/v1/games/${encodeURIComponent(li.dataset.id)}`);
      // The game's own page reads the choices it needs from it (gamepage.js: choices.fromSaved).
      const request = { game: game.game, city: game.city, cards: game.cards, expansions: game.expansions, variant: game.variant, options: game.options };
      savedAs = null;
      restore({ request, scanId: game.scan_id });
      $("#score-h").scrollIntoView({ behavior: "smooth" });
    }
  } catch (err) {
    showError(err);
  }
}

// ---- statistics --------------------------------------------------------------------------------------

function statTable(caption, head, rows) {
  const table = document.createElement("table");
  table.className = "breakdown stats";
  const cap = table.createCaption();
  cap.textContent = caption;
  const tr = table.createTHead().insertRow();
  head.forEach((h, i) => {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = h;
    if (i > 0) th.className = "num";
    tr.append(th);
  });
  const body = table.createTBody();
  for (const row of rows) {
    const r = body.insertRow();
    row.forEach((cell, i) => {
      const td = i === 0 ? document.createElement("th") : document.createElement("td");
      if (i === 0) td.scope = "row";
      else td.className = "num";
      td.textContent = cell;
      r.append(td);
    });
  }
  return table;
}

const line = (label, s) => [label, s.games, s.won, s.mean, s.best, s.worst];

function renderStats(stats) {
  const box = $("#stats");
  box.replaceChildren();
  $("#stats-empty").hidden = stats.games > 0;
  const head = ["Cards", "Games", "Won", "Mean", "Best", "Worst"];
  for (const section of stats.sections) {
    const face = gameOf(section.game);
    const title = face.info.stats_heading;
    const rows = [line("All games", section.overall)];
    for (const combo of section.combinations.slice(0, 12)) {
      rows.push(line(combo.cards.length ? combo.cards.join(" · ") : "none", combo));
    }
    const table = statTable(title, head, rows);
    table.tBodies[0].rows[0].classList.add("overall");
    box.append(table);
    const named = (card) => (face.cardName(card) ? `${card} ${face.cardName(card)}` : String(card));
    const cards = section.cards.slice(0, 18).map((c) => [named(c.card), c.won, c.games]);
    if (cards.length) box.append(statTable(`${title}: each card in won games`, ["Card", "Won", "Games"], cards));
  }
}

async function refresh() {
  try {
    const [page, stats] = await Promise.all([
      call("GET", `/api/v1/games?limit=${HISTORY_PAGE}`),
      call("GET", "/api/v1/stats"),
    ]);
    renderHistory(page);
    renderStats(stats);
    showError(null);
  } catch (err) {
    showError(err);
  }
}

// ---- export and import -------------------------------------------------------------------------------

async function exportGames() {
  try {
    const doc = await call("GET", "/api/v1/games/export");
    const url = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = "sprawlscan-games.json";
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (err) {
    showError(err);
  }
}

async function importGames(ev) {
  const file = ev.target.files && ev.target.files[0];
  ev.target.value = "";
  if (!file) return;
  try {
    let doc;
    try { doc = JSON.parse(await file.text()); } catch (err) { throw new Error(`${file.name} is not JSON: ${err.message}`); }
    const done = await call("POST", "/api/v1/games/import", doc);
    $("#save-status").textContent = `Imported ${done.imported} games.`;
    await refresh();
  } catch (err) {
    showError(err);
  }
}

// ---- the current game across a reload ----------------------------------------------------------------

function restore(detail) {
  document.dispatchEvent(new CustomEvent("sprawlscan:restore", { detail }));
  const fig = $("#overlay-box");
  if (detail.scanId && fig) {
    // The scan is kept on the server for a while: its overlay comes back too, or stays hidden if expired.
    // It is this device's: fetched with the token (an <img> cannot send it), hidden when it is gone.
    const img = $("#overlay");
    img.onerror = () => { fig.hidden = true; };
    privateImage(`/api/v1/scans/${encodeURIComponent(detail.scanId)}/overlay`).then((url) => {
      if (!url) { fig.hidden = true; return; }
      img.src = url;
      fig.hidden = false;
    });
  }
}

async function onReady() {
  const saved = keptGame();
  const drafted = document.documentElement.dataset.restored === "draft"; // the page put its own draft back
  if (saved && saved.request && typeof saved.request.city === "string" && !current && !drafted) {
    savedAs = saved.savedAs || null;
    restore(saved);
  }
  await refresh();
}

document.addEventListener("sprawlscan:scored", (e) => onScored(e.detail));
document.addEventListener("sprawlscan:ready", onReady);
// "Start over": the last game is not brought back by the next reload either.
document.addEventListener("sprawlscan:start-over", () => {
  current = null;
  savedAs = null;
  try { localStorage.removeItem(CURRENT_KEY); } catch { /* nothing kept */ }
  $("#save-game").hidden = true;
  clearGameFields();
});
// A new game on the page (a new photo, a typed city, "Start over"): the last one's label and players are
// not its own.
function clearGameFields() {
  $("#game-label").value = "";
  $("#game-players").value = "";
  $("#save-status").textContent = "";
  showError(null);
}
document.addEventListener("sprawlscan:new-game", clearGameFields);
document.addEventListener("DOMContentLoaded", () => {
  $("#save-game").addEventListener("submit", saveGame);
  $("#history").addEventListener("click", onHistoryClick);
  $("#export-games").addEventListener("click", exportGames);
  $("#import-games").addEventListener("change", importGames);
  // Another game chosen: the score on screen is gone, so there is nothing to save until the next one.
  $("#game-switch").addEventListener("change", () => { current = null; $("#save-game").hidden = true; });
});
