// The city grid: cells drawn as the game draws them (gamepage.js), column letters and row numbers around them,
// the breakdown's cells outlined, and paint mode (choose a brush, tap or drag over cells).
import { $, el, emit } from "./dom.js";
import { cellName, columnName } from "./city.js";
import { game } from "./gamepage.js";
import { key, state } from "./state.js";

function cellButton(token, r, c) {
  const k = key(r, c);
  const btn = el("button", { type: "button", class: "cell", "data-row": r, "data-col": c, "data-name": cellName(r, c) });
  btn.style.gridRow = String(r + 2 + (state.interstate !== null && r >= state.interstate ? 1 : 0));
  btn.style.gridColumn = String(c + 2);
  const cells = game().cells;
  btn.classList.add(cells.cellClass(token));
  cells.drawCell(btn, token);
  if (state.doubts.has(k)) btn.classList.add("doubt");
  if (state.highlight.has(cellName(r, c))) btn.classList.add("hl");
  if (state.selected === k) btn.classList.add("selected");
  const doubt = state.doubts.has(k) ? " (the scanner is in doubt: please check)" : "";
  btn.setAttribute("aria-label", `${cellName(r, c)}: ${cells.describe(token)}${doubt}`);
  return btn;
}

export function renderGrid() {
  const grid = $("#grid");
  grid.replaceChildren();
  const nRows = state.rows.length;
  const nCols = nRows ? state.rows[0].length : 0;
  grid.style.setProperty("--cols", nCols);
  grid.classList.toggle("painting", state.brush !== null);
  $("#grid-hint").hidden = nRows > 0;
  $("#grid-tools").hidden = nRows === 0;
  if (nRows) {
    for (let c = 0; c < nCols; c++) {
      const label = el("span", { class: "coord col", "aria-hidden": "true", text: columnName(c) });
      label.style.gridRow = "1";
      label.style.gridColumn = String(c + 2);
      grid.append(label);
    }
  }
  state.rows.forEach((row, r) => {
    const gridRow = String(r + 2 + (state.interstate !== null && r >= state.interstate ? 1 : 0));
    if (state.interstate !== null && r === state.interstate) {
      const line = el("div", { class: "interstate", role: "presentation" });
      line.style.gridRow = String(r + 2);
      grid.append(line);
    }
    const label = el("span", { class: "coord row", "aria-hidden": "true", text: String(r + 1) });
    label.style.gridRow = gridRow;
    label.style.gridColumn = "1";
    grid.append(label);
    row.forEach((token, c) => grid.append(cellButton(token, r, c)));
  });
  const sel = $("#interstate");
  const current = state.interstate === null ? "" : String(state.interstate);
  sel.replaceChildren(new Option("none", ""));
  for (let r = 1; r < nRows; r++) sel.append(new Option(`between rows ${r} and ${r + 1}`, String(r)));
  sel.value = current;
  emit("grid-drawn");
}

// Outline and briefly flash the cells of a breakdown line, and bring the grid into view.
export function flashCells() {
  const cells = [...document.querySelectorAll("#grid .cell.hl")];
  for (const cell of cells) {
    cell.classList.remove("flash");
    void cell.offsetWidth; // restart the animation
    cell.classList.add("flash");
  }
  return cells;
}

// ---- paint mode ------------------------------------------------------------------------------------------

let painted = null; // Set of "r,c" painted during the current stroke

function paintAt(x, y) {
  const target = document.elementFromPoint(x, y);
  const btn = target && target.closest("#grid .cell");
  if (!btn) return;
  paintCell(Number(btn.dataset.row), Number(btn.dataset.col));
}

export function paintCell(r, c) {
  const k = key(r, c);
  if (!state.brush || (painted && painted.has(k))) return;
  if (painted) painted.add(k);
  const before = state.rows[r][c];
  const after = game().cells.paint(before, state.brush);
  // Painting a cell is checking it: it is no longer in doubt, whether the paint changed it or not.
  const checked = state.doubts.delete(k);
  if (after === before && !checked) return;
  state.rows[r][c] = after;
  const old = $(`#grid .cell[data-row="${r}"][data-col="${c}"]`);
  if (old) old.replaceWith(cellButton(after, r, c));
  if (!painted) emit("city-edited");
}

export function wireGrid() {
  const grid = $("#grid");
  grid.addEventListener("pointerdown", (e) => {
    if (!state.brush || !e.isPrimary) return;
    e.preventDefault();
    painted = new Set();
    paintAt(e.clientX, e.clientY);
  });
  grid.addEventListener("pointermove", (e) => {
    if (painted && e.isPrimary) paintAt(e.clientX, e.clientY);
  });
  const finish = () => {
    if (!painted) return;
    const changed = painted.size > 0;
    painted = null;
    if (changed) emit("city-edited");
  };
  window.addEventListener("pointerup", finish);
  window.addEventListener("pointercancel", finish);
  grid.addEventListener("click", (e) => {
    const btn = e.target.closest(".cell");
    if (!btn) return;
    const r = Number(btn.dataset.row);
    const c = Number(btn.dataset.col);
    if (state.brush) { if (e.detail === 0) paintCell(r, c); return; } // keyboard: Enter paints
    emit("cell-tapped", { r, c });
  });
}
