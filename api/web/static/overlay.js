// The photo with what was read drawn over it as SVG (so it follows every correction): each cell's outline
// in the photo's own perspective, its current token and road, the column letters and row numbers, the
// breakdown's cells and the selected cell. Zoom with the buttons, a double tap or a pinch.
import { $, emit, svgEl } from "./dom.js";
import { cellName, columnName } from "./city.js";
import { game } from "./gamepage.js";
import { key, state } from "./state.js";

const ZOOMS = [1, 1.5, 2, 3, 4];
let zoom = 1;
// The SVG's coordinate space: the photo's aspect, w × h, with a margin m round it where the column letters
// and row numbers of a city photographed close to the photo's edge still show.
let size = { w: 1000, h: 750, m: 80 };

// Unit square point (u along the row, v down the column) -> photo point, bilinear over the cell's corners.
function at(quad, u, v) {
  const [tl, tr, br, bl] = quad;
  const x = (1 - u) * (1 - v) * tl[0] + u * (1 - v) * tr[0] + u * v * br[0] + (1 - u) * v * bl[0];
  const y = (1 - u) * (1 - v) * tl[1] + u * (1 - v) * tr[1] + u * v * br[1] + (1 - u) * v * bl[1];
  return [x * size.w, y * size.h];
}

const fmt = (pts) => pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");

export function renderOverlay() {
  const svg = $("#overlay-svg");
  if (!svg || !state.outlines) return;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `${-size.m} ${-size.m} ${size.w + 2 * size.m} ${size.h + 2 * size.m}`);
  const unit = Math.hypot(size.w, size.h) / 1000;
  state.rows.forEach((row, r) => row.forEach((token, c) => {
    const quad = state.outlines.get(key(r, c));
    if (!quad) return;
    const k = key(r, c);
    const corrected = state.scanned && state.scanned.get(k) !== token;
    const cells = game().cells;
    const g = svgEl("g", { class: `ov-cell ${cells.cellClass(token)}`, "data-row": r, "data-col": c, "data-name": cellName(r, c) });
    if (corrected) g.classList.add("corrected");
    if (state.doubts.has(k)) g.classList.add("doubt");
    if (state.highlight.has(cellName(r, c))) g.classList.add("hl");
    if (state.selected === k) g.classList.add("selected");
    g.append(svgEl("polygon", { points: fmt(quad.map((_, i) => at(quad, [0, 1, 1, 0][i], [0, 0, 1, 1][i]))) }));
    for (const line of cells.overlayLines(token)) {
      const points = fmt(line.map(([u, v]) => at(quad, u, v)));
      g.append(svgEl("polyline", { points, class: "ov-road", "stroke-width": 3 * unit }));
    }
    if (token !== ".") {
      const [x, y] = at(quad, 0.5, 0.5);
      const text = svgEl("text", { x: x.toFixed(1), y: y.toFixed(1), class: "ov-label", "font-size": (13 * unit).toFixed(1) });
      text.textContent = cells.overlayLabel(token);
      g.append(text);
    }
    svg.append(g);
  }));
  // Column letters beyond the first row's outer sides, row numbers beyond the first column's.
  const rows = state.rows.length;
  const cols = rows ? state.rows[0].length : 0;
  const label = (quad, u, v, text) => {
    const [x, y] = at(quad, u, v);
    const t = svgEl("text", { x: x.toFixed(1), y: y.toFixed(1), class: "ov-coord", "font-size": (16 * unit).toFixed(1) });
    t.textContent = text;
    svg.append(t);
  };
  for (let c = 0; c < cols; c++) {
    const quad = state.outlines.get(key(0, c));
    if (quad) label(quad, 0.5, -0.45, columnName(c));
  }
  for (let r = 0; r < rows; r++) {
    const quad = state.outlines.get(key(r, 0));
    if (quad) label(quad, -0.3, 0.5, String(r + 1));
  }
}

// Which way the grid's rows run in the photo: 0 right, 1 down, 2 left, 3 up (quarter turns clockwise).
function quarterTurns(cells, w, h) {
  let sx = 0;
  let sy = 0;
  for (const cell of cells) {
    if (!cell.outline) continue;
    const [tl, tr] = cell.outline;
    sx += (tr[0] - tl[0]) * w;
    sy += (tr[1] - tl[1]) * h;
  }
  return ((Math.round(Math.atan2(sy, sx) / (Math.PI / 2)) % 4) + 4) % 4;
}

// The photo turned by whole quarter turns so that the grid's rows run left to right, as on the page, and
// the outlines turned with it (fractions of the turned photo).
const TURN_POINT = {
  1: ([x, y]) => [y, 1 - x],
  2: ([x, y]) => [1 - x, 1 - y],
  3: ([x, y]) => [1 - y, x],
};

async function turned(img, k) {
  const w = img.naturalWidth;
  const h = img.naturalHeight;
  const canvas = document.createElement("canvas");
  canvas.width = k === 2 ? w : h;
  canvas.height = k === 2 ? h : w;
  const ctx = canvas.getContext("2d");
  if (k === 1) { ctx.translate(0, canvas.height); ctx.rotate(-Math.PI / 2); }
  if (k === 2) { ctx.translate(w, h); ctx.rotate(Math.PI); }
  if (k === 3) { ctx.translate(canvas.width, 0); ctx.rotate(Math.PI / 2); }
  ctx.drawImage(img, 0, 0);
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.9));
  return blob ? URL.createObjectURL(blob) : null;
}

function loaded(src) {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = reject;
    img.src = src;
  });
}

// Show a scan: the photo (ours when we shrank it, else the server's overlay image), turned to the grid's
// orientation, with the cells' outlines.
export async function showPhoto(src, cells) {
  const fig = $("#overlay-box");
  state.outlines = null; // the last scan's outlines do not fit this city
  if (!src) { hidePhoto(); return; }
  let img;
  try {
    img = await loaded(src);
  } catch {
    hidePhoto();
    return;
  }
  const k = quarterTurns(cells || [], img.naturalWidth, img.naturalHeight);
  const turn = TURN_POINT[k] || ((p) => p);
  state.outlines = new Map();
  for (const cell of cells || []) if (cell.outline) state.outlines.set(key(cell.row, cell.col), cell.outline.map(turn));
  const shown = k ? (await turned(img, k)) || src : src;
  const view = $("#overlay");
  view.onload = () => {
    size = { w: 1000, h: Math.round((1000 * view.naturalHeight) / view.naturalWidth), m: 80 };
    placePhoto();
    renderOverlay();
    fitCity();
    emit("photo-shown");
  };
  view.src = shown;
  $("#overlay-turned").hidden = k === 0;
  fig.hidden = false;
  setZoom(1);
}

// The stage is the photo with the margin round it: the photo sits inside, the SVG covers both.
function placePhoto() {
  const { w, h, m } = size;
  $("#overlay-stage").style.aspectRatio = `${w + 2 * m} / ${h + 2 * m}`;
  Object.assign($("#overlay").style, {
    left: `${(100 * m) / (w + 2 * m)}%`, top: `${(100 * m) / (h + 2 * m)}%`,
    width: `${(100 * w) / (w + 2 * m)}%`, height: `${(100 * h) / (h + 2 * m)}%`,
  });
}

// The city's extent as fractions of the stage: its cells, and its letters and numbers with room round them.
function cityBox() {
  const { w, h, m } = size;
  const pts = [];
  for (const [k, quad] of state.outlines) {
    pts.push(...quad.map(([x, y]) => [x * w, y * h]));
    const [r, c] = k.split(",").map(Number);
    if (r === 0) pts.push(at(quad, 0.5, -0.8), at(quad, -0.1, -0.8), at(quad, 1.1, -0.8));
    if (c === 0) pts.push(at(quad, -0.6, 0.5), at(quad, -0.6, -0.1), at(quad, -0.6, 1.1));
  }
  const xs = pts.map((p) => (p[0] + m) / (w + 2 * m));
  const ys = pts.map((p) => (p[1] + m) / (h + 2 * m));
  return [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
}

// Zoom so that the city with its labels fills the view, and scroll it into the middle.
function fitCity() {
  if (!state.outlines || !state.outlines.size) return;
  const [x0, x1, y0, y1] = cityBox();
  const view = $("#overlay-view");
  const aspect = (size.h + 2 * size.m) / (size.w + 2 * size.m); // stage height per unit of stage width
  const fitW = 0.96 / (x1 - x0);
  const fitH = (0.96 * view.clientHeight) / (view.clientWidth * aspect * (y1 - y0) || 1);
  const z = Math.max(1, Math.min(ZOOMS[ZOOMS.length - 1], fitW, fitH));
  setZoom(z);
  const stage = $("#overlay-stage").getBoundingClientRect();
  view.scrollLeft = ((x0 + x1) / 2) * stage.width - view.clientWidth / 2;
  view.scrollTop = ((y0 + y1) / 2) * stage.height - view.clientHeight / 2;
}

export function hidePhoto() {
  $("#overlay-box").hidden = true;
  state.outlines = null;
}

function setZoom(z, focus) {
  const view = $("#overlay-view");
  const old = zoom;
  zoom = Math.min(ZOOMS[ZOOMS.length - 1], Math.max(1, z));
  // Keep the point under the finger (or the view's centre) where it was.
  const fx = focus ? focus.x : view.clientWidth / 2;
  const fy = focus ? focus.y : view.clientHeight / 2;
  const px = (view.scrollLeft + fx) / old;
  const py = (view.scrollTop + fy) / old;
  $("#overlay-stage").style.width = `${zoom * 100}%`;
  view.scrollLeft = px * zoom - fx;
  view.scrollTop = py * zoom - fy;
  $("#zoom-level").textContent = `${Math.round(zoom * 100)} %`;
  view.classList.toggle("zoomed", zoom > 1);
}

function step(direction) {
  const i = ZOOMS.findIndex((z) => z >= zoom - 1e-6);
  const next = direction > 0 ? ZOOMS.find((z) => z > zoom + 1e-6) : [...ZOOMS].reverse().find((z) => z < zoom - 1e-6);
  setZoom(next === undefined ? ZOOMS[i] : next);
}

export function wireOverlay() {
  const view = $("#overlay-view");
  $("#zoom-in").addEventListener("click", () => step(1));
  $("#zoom-out").addEventListener("click", () => step(-1));
  $("#zoom-fit").addEventListener("click", () => setZoom(1));
  $("#zoom-city").addEventListener("click", fitCity);
  view.addEventListener("dblclick", (e) => {
    const box = view.getBoundingClientRect();
    setZoom(zoom >= 3 ? 1 : zoom * 2, { x: e.clientX - box.left, y: e.clientY - box.top });
  });
  // Pinch: two fingers on the photo scale it; one finger pans (the view scrolls natively).
  const touches = new Map();
  let pinch = null;
  view.addEventListener("pointerdown", (e) => {
    if (e.pointerType !== "touch") return;
    touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (touches.size === 2) {
      const [a, b] = [...touches.values()];
      pinch = { dist: Math.hypot(a.x - b.x, a.y - b.y), zoom };
    }
  });
  view.addEventListener("pointermove", (e) => {
    if (!touches.has(e.pointerId)) return;
    touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pinch && touches.size === 2) {
      const [a, b] = [...touches.values()];
      const box = view.getBoundingClientRect();
      setZoom(pinch.zoom * (Math.hypot(a.x - b.x, a.y - b.y) / pinch.dist), {
        x: (a.x + b.x) / 2 - box.left, y: (a.y + b.y) / 2 - box.top,
      });
    }
  });
  const lift = (e) => { touches.delete(e.pointerId); if (touches.size < 2) pinch = null; };
  view.addEventListener("pointerup", lift);
  view.addEventListener("pointercancel", lift);
  $("#overlay-svg").addEventListener("click", (e) => {
    const g = e.target.closest(".ov-cell");
    if (g) emit("cell-tapped", { r: Number(g.dataset.row), c: Number(g.dataset.col), from: "photo" });
  });
}
