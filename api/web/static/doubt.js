// What the scanner doubts, and a photo it could not trust. Each doubtful cell (the scan JSON's "doubt") is
// marked on the photo and in the grid and listed with the score: its reading, why it is in doubt, and each
// other reading it could be as one tap that puts that reading in the cell and rescores through the engine,
// with the total it would give. A "retake" answer (the photo's geometry was unsure) has no total: its reason
// shows above the score, and the city read stays on the page to correct by hand; correcting it scores.
import { $, $$, el, emit, scrollBehaviour } from "./dom.js";
import { cellName, formatCity } from "./city.js";
import { api } from "./api.js";
import { game, scoreBody } from "./gamepage.js";
import { key, state } from "./state.js";
import { pageWords } from "./wording.js";
import { saveDraft } from "./storage.js";

// The score request the alternatives' totals were worked out for: after any other change they are stale.
let totalsFor = null;

// "If it is a park", "If there is no block": the game's words for another reading of a cell.
const ifItIs = (label) => game().cells.ifItIs(label);
const readAs = (label) => game().cells.readAs(label);

const total = (v) => (Number.isFinite(v) ? v : null);

// The doubts of a list (a scan's, or the draft's), each cell in the city as it is (anything else is left out).
function takeDoubts(list, withTotals) {
  state.doubts = new Map();
  const rows = state.rows.length;
  const cols = rows ? state.rows[0].length : 0;
  for (const d of Array.isArray(list) ? list : []) {
    if (!d || !Number.isInteger(d.row) || !Number.isInteger(d.col) || d.row < 0 || d.col < 0 || d.row >= rows || d.col >= cols) continue;
    const alternatives = (Array.isArray(d.alternatives) ? d.alternatives : []).filter((a) => a && typeof a.label === "string")
      .map((a) => ({ label: a.label, total: withTotals ? total(a.total) : null }));
    state.doubts.set(key(d.row, d.col), { row: d.row, col: d.col, reading: state.rows[d.row][d.col], why: String(d.why || ""), alternatives });
  }
}

// Take in a scan's doubts and retake.
export function adoptDoubts(data) {
  state.retake = typeof data.retake === "string" && data.retake.trim() ? data.retake.trim() : null;
  // A scan with no total and no reason still must not look scored.
  if (!state.retake && (!Number.isFinite(data.total) || !Array.isArray(data.items))) state.retake = "the scanner gave no total for this photo";
  state.retakeScored = false;
  takeDoubts(data.doubt, !state.retake);
  // A scan's own totals hold for the city and choices it was scored with, which are the page's now.
  totalsFor = state.retake ? null : JSON.stringify(scoreBody());
}

// The doubts and retake kept with the draft (storage.js); says whether the page may score the draft: not a
// photo to retake that nobody has corrected yet.
export function restoreDoubts(draft) {
  state.retake = typeof draft.retake === "string" ? draft.retake : null;
  state.retakeScored = draft.retakeScored === true;
  takeDoubts(draft.doubts, false); // their totals are asked again once the draft is scored
  totalsFor = null;
  return !state.retake || state.retakeScored;
}

export function clearDoubts() {
  state.doubts = new Map();
  state.retake = null;
  state.retakeScored = false;
  totalsFor = null;
}

// One tap: the alternative goes into the cell by the same path as the cell dialog, and the doubt is resolved.
function apply(k, label) {
  const d = state.doubts.get(k);
  if (!d) return;
  state.rows[d.row][d.col] = label;
  state.doubts.delete(k);
  emit("city-edited", { focus: null });
}

function doubtItem(k, d) {
  const name = cellName(d.row, d.col);
  const alts = d.alternatives.map((a) => {
    const text = a.total === null ? ifItIs(a.label) : `${ifItIs(a.label)}: ${a.total}`;
    return el("button", { type: "button", class: "alt", "data-key": k, "data-label": a.label,
      "data-total": a.total === null ? undefined : a.total, title: `Put ${a.label} in ${name} and rescore` }, text);
  });
  return el("li", { class: "doubt-item", "data-cell": name },
    el("p", {}, el("button", { type: "button", class: "doubt-cell", "data-key": k, title: `Show ${name} in the city` }, name),
      ` read as ${readAs(d.reading)}`, d.why ? `: ${pageWords(d.why)}.` : "."),
    el("div", { class: "alts" }, ...alts));
}

// The retake box, the "N cells to check" line, the list and the hint under the grid; also drops doubts of
// cells no longer in the city.
export function renderDoubts() {
  for (const [k, d] of state.doubts) {
    if (d.row >= state.rows.length || d.col >= (state.rows[0] || []).length) state.doubts.delete(k);
  }
  const retake = $("#retake");
  retake.hidden = !state.retake;
  if (state.retake) {
    const why = pageWords(state.retake);
    $("#retake-why").textContent = why.charAt(0).toUpperCase() + why.slice(1);
    $("#retake-scored").hidden = !(state.breakdown && Number.isFinite(state.breakdown.total));
  }
  const n = state.doubts.size;
  $("#doubt-box").hidden = n === 0;
  $("#doubt-hint").hidden = n === 0 || !state.rows.length;
  $("#doubt-count").textContent = `${n} cell${n === 1 ? "" : "s"} to check`;
  $("#doubt-count").dataset.show = n === 1 ? "show it ↑" : "show them ↑";
  $("#doubts").replaceChildren(...[...state.doubts].map(([k, d]) => doubtItem(k, d)));
}

// Bring the grid into view and flash the doubtful cells (or the one named).
function pointAt(k) {
  $(".grid-wrap").scrollIntoView({ block: "center", behavior: scrollBehaviour() });
  const cells = k ? $$(`#grid .cell.doubt[data-row="${k.split(",")[0]}"][data-col="${k.split(",")[1]}"]`) : $$("#grid .cell.doubt");
  for (const cell of cells) {
    cell.classList.remove("flash");
    void cell.offsetWidth; // restart the animation
    cell.classList.add("flash");
  }
}

// After a change elsewhere in the city (or the cards) the remaining alternatives' totals are asked again
// from the engine, each the city as it is now with that one cell changed.
async function refreshTotals(request) {
  const asked = JSON.stringify(request);
  if (!state.doubts.size || asked === totalsFor) return;
  totalsFor = asked;
  const jobs = [];
  for (const d of state.doubts.values()) {
    for (const a of d.alternatives) {
      a.total = null;
      const rows = state.rows.map((row, r) => row.map((t, c) => (r === d.row && c === d.col ? a.label : t)));
      const body = { ...request, city: formatCity(rows, state.interstate, state.headers) };
      jobs.push(api("/api/v1/score", body).then((bd) => { if (totalsFor === asked) a.total = total(bd.total); }));
    }
  }
  renderDoubts();
  await Promise.allSettled(jobs); // an alternative the engine refuses keeps no total
  if (totalsFor === asked) renderDoubts();
}

export function wireDoubts() {
  $("#doubts").addEventListener("click", (e) => {
    const alt = e.target.closest("button.alt");
    if (alt) { apply(alt.dataset.key, alt.dataset.label); return; }
    const cell = e.target.closest("button.doubt-cell");
    if (cell) pointAt(cell.dataset.key);
  });
  $("#doubt-count").addEventListener("click", () => pointAt(null));
  $("#retake-fix").addEventListener("click", () => $("#city-h").scrollIntoView({ block: "start", behavior: scrollBehaviour() }));
  document.addEventListener("sprawlscan:scored", (e) => {
    if (state.retake && !state.retakeScored) {
      state.retakeScored = true; // corrected by hand: a reload scores it again
      saveDraft({ tally: $("#tally").value });
    }
    refreshTotals(e.detail.request);
  });
}
