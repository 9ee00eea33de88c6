// The score: the breakdown table, the verdict, the notes and the sticky total. Tapping a line that counted
// cells outlines them in the grid and on the photo, scrolls the grid into view and flashes them.
import { $, el, emit, scrollBehaviour, signed } from "./dom.js";
import { gameOf } from "./gamepage.js";
import { state } from "./state.js";
import { pageWords } from "./wording.js";

function renderItems(body, items) {
  body.replaceChildren();
  for (const item of items) {
    const tr = el("tr", { "data-key": item.key });
    if (item.cells && item.cells.length) {
      tr.tabIndex = 0;
      tr.classList.add("has-cells");
      tr.title = `Show its ${item.cells.length} cell${item.cells.length === 1 ? "" : "s"} in the city`;
    }
    if (state.highlightKey === item.key) tr.classList.add("active");
    const label = el("span", { class: "label", text: item.label });
    if (item.provenance && item.provenance !== "printed") label.append(" ", el("small", { class: "prov", text: item.provenance }));
    const th = el("th", { scope: "row" }, label);
    if (item.detail) th.append(el("span", { class: "detail", text: pageWords(item.detail) }));
    const td = el("td", { class: "num " + (item.points < 0 ? "neg" : item.points > 0 ? "pos" : ""), text: signed(item.points) });
    tr.append(th, td);
    body.append(tr);
  }
}


export function renderBreakdown(bd) {
  state.breakdown = bd;
  $("#error").hidden = true;
  $("#text-error").hidden = true;
  $("#result").hidden = false;
  $("#verdict").hidden = false;
  $("#score-table").hidden = false;
  const still = bd.items.find((i) => i.key === state.highlightKey);
  if (!still) { state.highlightKey = null; state.highlight = new Set(); }
  else state.highlight = new Set(still.cells || []);
  renderItems($("#items"), bd.items);
  const oppBox = $("#opponent");
  oppBox.hidden = !bd.opponent;
  if (bd.opponent) {
    renderItems($("#opp-items"), bd.opponent.items || []);
    $("#opp-total").textContent = bd.opponent.total === null ? "incomplete" : bd.opponent.total;
  }
  $("#total").textContent = bd.total;
  const { text: said, won } = gameOf(bd.game || state.game).verdict(bd);
  const opp = bd.opponent && bd.opponent.total !== null && bd.opponent.total !== undefined ? bd.opponent.total : null;
  const target = bd.target !== null && bd.target !== undefined ? ` · target ${bd.target}` : opp !== null ? ` · opponent ${opp}` : "";
  const verdict = $("#verdict");
  verdict.className = "verdict " + (won === true ? "won" : won === false ? "lost" : "");
  verdict.replaceChildren(el("span", { class: "big", text: `${bd.total} points` }), el("span", { class: "small", text: `${said}${target}` }));
  $("#notes").replaceChildren(...(bd.notes || []).map((n) => el("li", { text: pageWords(n) })));
  const sticky = $("#sticky");
  sticky.hidden = false;
  sticky.textContent = `Total ${bd.total}${target}${won === true ? " · win" : won === false ? " · short" : ""}`;
  sticky.className = "sticky " + (won === true ? "won" : won === false ? "lost" : "");
}

// A scan with no total (a photo to retake): the result shows what it has (the retake, the cards, the
// warnings, the doubtful cells) and no total anywhere, neither a verdict nor the table nor the sticky bar.
export function renderUnscored() {
  state.breakdown = null;
  state.highlightKey = null;
  state.highlight = new Set();
  $("#error").hidden = true;
  $("#text-error").hidden = true;
  $("#result").hidden = false;
  // The save form (games.js) belongs to the last score shown: nothing is scored now.
  for (const sel of ["#verdict", "#score-table", "#opponent", "#sticky", "#save-game"]) $(sel).hidden = true;
  $("#items").replaceChildren();
  $("#total").textContent = "";
  $("#notes").replaceChildren();
}

export function showError(err) {
  // The breakdown on screen no longer matches the inputs: hide it rather than show a stale score.
  $("#result").hidden = true;
  $("#sticky").hidden = true;
  const box = $("#error");
  box.hidden = false;
  box.textContent = pageWords(err.message || String(err));
  box.scrollIntoView({ block: "nearest", behavior: scrollBehaviour() });
}

function highlightItem(tr) {
  if (!tr || !state.breakdown) return;
  const items = [...state.breakdown.items, ...((state.breakdown.opponent && state.breakdown.opponent.items) || [])];
  const item = items.find((i) => i.key === tr.dataset.key);
  const again = state.highlightKey === tr.dataset.key;
  for (const row of document.querySelectorAll(".breakdown tr.active")) row.classList.remove("active");
  if (again || !item || !item.cells || !item.cells.length) {
    state.highlightKey = null;
    state.highlight = new Set();
    emit("highlight", { scroll: false });
    return;
  }
  tr.classList.add("active");
  state.highlightKey = item.key;
  state.highlight = new Set(item.cells);
  emit("highlight", { scroll: true });
}

export function wireBreakdown() {
  for (const body of [$("#items"), $("#opp-items")]) {
    body.addEventListener("click", (e) => highlightItem(e.target.closest("tr")));
    body.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); highlightItem(e.target.closest("tr")); }
    });
  }
}
