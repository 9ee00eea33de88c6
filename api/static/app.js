// sprawlscan page: upload a photo, correct the recognised grid, pick cards, score, check a tally.
// Plain ES2020, no build step. The server is the only source of truth for scores; this file only edits
// the city (as rows of cell tokens in the city text format) and renders what the API answers.
"use strict";

const $ = (sel) => document.querySelector(sel);
const ROADS = ["NS", "NE", "NW", "SE", "SW", "EW"];
const ZONE_NAMES = { R: "residential", C: "commercial", I: "industrial", P: "park" };
const SIDE_NAMES = { N: "north", S: "south", E: "east", W: "west" };
// Road centre lines in a 140 × 100 block (the cards' 1.4 : 1 block aspect); curves are quarter ellipses.
const ROAD_PATHS = {
  NS: "M70 0 L70 100",
  EW: "M0 50 L140 50",
  NE: "M70 0 A70 50 0 0 0 140 50",
  NW: "M70 0 A70 50 0 0 1 0 50",
  SE: "M70 100 A70 50 0 0 1 140 50",
  SW: "M70 100 A70 50 0 0 0 0 50",
};

const EXAMPLES = {
  sprawlopolis: "R:EW  I:EW  R:EW  C:EW\nP     C:SE  I:SW  P\n.     C:NS  P     R:NS\n",
  wagons: ".    .    .    .    P/c  P/f\nD/w  D/g  D/f  P/b  P/m  F/b\nD/c  M/f  M/c  M/c  P/g  .\n" +
    "W/m  W/b  M/f  M/m  .    .\nS/w  W/g  D/b  M/w  .    .\n",
};

// Cells read with less confidence than this are outlined so the player checks them first.
const UNSURE_BELOW = 0.8;

const state = {
  game: "sprawlopolis",
  goals: [],         // Circle the Wagons goal-card ids
  scenario: "",      // Lone Cowboy scenario id
  pile: "",          // the opponent's pile, as typed
  rows: [],          // string[][] of cell tokens
  interstate: null,  // rows above the interstate line, or null
  headers: [],       // other "key: value" header lines of the scanned or typed city, kept as they were
  cards: [],
  expansions: [],
  options: {},
  variant: "",
  scanId: null,
  breakdown: null,
  meta: null,
  editing: null,     // [row, col] being edited
  unsure: new Set(), // "r,c" of cells the scanner read with low confidence and nobody has checked yet
  seq: 0,            // request counter: only the newest answer is shown
};

// ---- city text <-> rows --------------------------------------------------------------------------------

function parseCityText(text) {
  const out = { rows: [], interstate: null, headers: [], cards: null, expansions: null, goals: null };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.split("#")[0].trim();
    if (!line) continue;
    const header = /^([A-Za-z][A-Za-z0-9_-]+)\s*:\s*(.*)$/.exec(line);
    if (header && out.rows.length === 0) {
      const key = header[1].toLowerCase();
      const value = header[2].trim();
      const words = value.split(/[\s,]+/).filter(Boolean);
      if (key === "cards" && state.game === "sprawlopolis") out.cards = words.map(Number);
      else if (key === "expansions" && state.game === "sprawlopolis") out.expansions = words;
      else if (key === "goals" && state.game === "wagons" && words.every(isGoalId)) out.goals = words;
      else if (key === "scenario" && state.game === "wagons") out.scenario = value;
      else if (key === "opponent-pile" && state.game === "wagons") out.pile = value;
      else out.headers.push([key, value]);
      continue;
    }
    if (/^=+$/.test(line)) { out.interstate = out.rows.length; continue; }
    out.rows.push(line.split(/\s+/));
  }
  return out;
}

function cityText() {
  const lines = state.headers.map(([k, v]) => `${k}: ${v}`);
  const widths = [];
  state.rows.forEach((row) => row.forEach((t, c) => { widths[c] = Math.max(widths[c] || 1, t.length); }));
  state.rows.forEach((row, r) => {
    if (state.interstate !== null && r === state.interstate) lines.push("=".repeat(Math.max(3, row.length * 6)));
    lines.push(row.map((t, c) => t.padEnd(widths[c])).join("  ").trimEnd());
  });
  return lines.join("\n") + "\n";
}

function parseToken(token) {
  if (token === "W") return { kind: "W", road: "", poi: false, construction: false };
  if (token === "~") return { kind: "~", road: "", poi: false, construction: false };
  const m = /^([RCIP])(?::([NSEW]{2}))?([*!]*)$/.exec(token);
  if (!m) return { kind: ".", road: "", poi: false, construction: false };
  return { kind: m[1], road: m[2] || "", poi: m[3].includes("*"), construction: m[3].includes("!") };
}

function makeToken({ kind, road, poi, construction }) {
  if (!"RCIP".includes(kind) || kind.length !== 1) return kind;
  let t = kind;
  if (road && kind !== "P") t += ":" + road;
  if (poi) t += "*";
  if (construction) t += "!";
  return t;
}

function cellName(r, c) {
  let letters = "";
  let n = c + 1;
  while (n) { const rem = (n - 1) % 26; letters = String.fromCharCode(65 + rem) + letters; n = Math.floor((n - 1) / 26); }
  return `${letters}${r + 1}`;
}

const TERRAINS = { D: "desert", F: "forest", M: "mountains", P: "plains", S: "snow", W: "water" };
const ICONS = { b: "beer", c: "cow", f: "fort", g: "gun", m: "mine", w: "wagon" };

function isGoalId(word) {
  return Boolean(state.meta && state.meta.wagons && state.meta.wagons.goals.some((g) => g.id === word));
}

function parseTerritory(token) {
  const m = /^([DFMPSW])\/([bcfgmw])$/.exec(token);
  return m ? { terrain: m[1], icon: m[2] } : null;
}

function describeToken(token) {
  if (state.game === "wagons") {
    const t = parseTerritory(token);
    return t ? `${TERRAINS[t.terrain]} with a ${ICONS[t.icon]}` : "empty";
  }
  const cell = parseToken(token);
  if (cell.kind === ".") return "no block";
  if (cell.kind === "W") return "Wrecktar";
  if (cell.kind === "~") return "beach";
  let text = ZONE_NAMES[cell.kind];
  if (cell.road) text += `, road ${SIDE_NAMES[cell.road[0]]}–${SIDE_NAMES[cell.road[1]]}`;
  if (cell.poi) text += ", Point of Interest";
  if (cell.construction) text += ", construction zone";
  return text;
}

// ---- rendering -------------------------------------------------------------------------------------------

function svgEl(name, attrs) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

function roadSvg(road, cls) {
  const svg = svgEl("svg", { viewBox: "0 0 140 100", "aria-hidden": "true", class: cls || "road" });
  if (road) {
    svg.append(svgEl("path", { d: ROAD_PATHS[road], class: "asphalt" }));
    svg.append(svgEl("path", { d: ROAD_PATHS[road], class: "centre" }));
  }
  return svg;
}

function renderGrid(highlight = new Set()) {
  const grid = $("#grid");
  grid.replaceChildren();
  const nCols = state.rows[0] ? state.rows[0].length : 0;
  grid.style.setProperty("--cols", nCols);
  $("#grid-hint").hidden = state.rows.length > 0;
  $("#grid-tools").hidden = state.rows.length === 0;
  $("#unsure-hint").hidden = state.unsure.size === 0;
  state.rows.forEach((row, r) => {
    if (state.interstate !== null && r === state.interstate) {
      const line = document.createElement("div");
      line.className = "interstate";
      line.setAttribute("role", "presentation");
      grid.append(line);
    }
    row.forEach((token, c) => {
      if (state.game === "wagons") { grid.append(territoryButton(token, r, c, highlight)); return; }
      const cell = parseToken(token);
      const btn = document.createElement("button");
      btn.type = "button";
      btn.className = `cell z-${cell.kind === "." ? "empty" : cell.kind === "~" ? "beach" : cell.kind}`;
      if (cell.poi) btn.classList.add("poi");
      if (cell.construction) btn.classList.add("construction");
      if (state.unsure.has(`${r},${c}`)) btn.classList.add("unsure");
      if (highlight.has(cellName(r, c))) btn.classList.add("hl");
      btn.dataset.row = r;
      btn.dataset.col = c;
      const doubt = state.unsure.has(`${r},${c}`) ? " (read with low confidence: please check)" : "";
      btn.setAttribute("aria-label", `${cellName(r, c)}: ${describeToken(token)}${doubt}`);
      btn.append(roadSvg(cell.road));
      const label = document.createElement("span");
      label.className = "tok";
      label.textContent = cell.kind === "." ? "" : token;
      btn.append(label);
      grid.append(btn);
    });
  });
  const sel = $("#interstate");
  const current = state.interstate === null ? "" : String(state.interstate);
  sel.replaceChildren(new Option("none", ""));
  for (let r = 1; r < state.rows.length; r++) sel.append(new Option(`between rows ${r} and ${r + 1}`, String(r)));
  sel.value = current;
}

function territoryButton(token, r, c, highlight) {
  const t = parseTerritory(token);
  const btn = document.createElement("button");
  btn.type = "button";
  btn.className = `cell ${t ? "t-" + t.terrain : "z-empty"}`;
  if (highlight.has(cellName(r, c))) btn.classList.add("hl");
  btn.dataset.row = r;
  btn.dataset.col = c;
  btn.setAttribute("aria-label", `${cellName(r, c)}: ${describeToken(token)}`);
  if (t) {
    const icon = document.createElement("span");
    icon.className = "icon";
    icon.textContent = ICONS[t.icon];
    const label = document.createElement("span");
    label.className = "tok";
    label.textContent = token;
    btn.append(label, icon);
  }
  return btn;
}

function renderGoals() {
  const w = state.meta && state.meta.wagons;
  if (!w) return;
  const box = $("#goals");
  box.replaceChildren();
  for (const goal of w.goals) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "chip";
    b.dataset.goal = goal.id;
    b.setAttribute("aria-pressed", String(state.goals.includes(goal.id)));
    b.textContent = goal.name;
    if (goal.provenance !== "printed") {
      const tag = document.createElement("small");
      tag.className = "prov";
      tag.textContent = goal.provenance;
      tag.title = goal.provenance === "reading" ? "the card text was not available: a reading of it" : "wording from a review";
      b.append(tag);
    }
    box.append(b);
  }
  const sel = $("#scenario");
  sel.replaceChildren(new Option("none", ""));
  for (const s of w.scenarios) sel.append(new Option(s.name, s.id));
  sel.value = state.scenario;
  $("#pile").value = state.pile;
}

function renderChips() {
  const meta = state.meta;
  if (!meta) return;
  const cards = $("#cards");
  cards.replaceChildren();
  for (const { number, name } of meta.cards) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "chip card-chip";
    b.dataset.card = number;
    b.setAttribute("aria-pressed", String(state.cards.includes(number)));
    b.innerHTML = `<b>${number}</b><span></span>`;
    b.querySelector("span").textContent = name;
    cards.append(b);
  }
  const exps = $("#expansions");
  exps.replaceChildren();
  for (const { name, label } of meta.expansions) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "chip";
    b.dataset.expansion = name;
    b.setAttribute("aria-pressed", String(state.expansions.includes(name)));
    b.textContent = label;
    exps.append(b);
  }
  renderExpansionOptions();
}

function renderExpansionOptions() {
  const box = $("#exp-options");
  box.replaceChildren();
  for (const exp of state.meta.expansions) {
    if (!state.expansions.includes(exp.name)) continue;
    for (const opt of exp.options || []) {
      const label = document.createElement("label");
      label.className = "inline";
      label.textContent = opt.label + " ";
      let input;
      if (opt.choices) {
        input = document.createElement("select");
        for (const choice of opt.choices) input.append(new Option(choice || "—", choice));
      } else {
        input = document.createElement("input");
        input.type = "number";
        input.inputMode = "numeric";
        input.step = "1";
      }
      input.dataset.option = opt.name;
      input.dataset.kind = opt.choices ? "choice" : "number";
      if (state.options[opt.name] !== undefined) input.value = state.options[opt.name];
      label.append(input);
      box.append(label);
    }
  }
}

function signed(n) { return n > 0 ? `+${n}` : String(n); }

function renderItems(body, items) {
  body.replaceChildren();
  for (const item of items) {
    const tr = document.createElement("tr");
    tr.dataset.key = item.key;
    if (item.cells && item.cells.length) { tr.tabIndex = 0; tr.classList.add("has-cells"); }
    const th = document.createElement("th");
    th.scope = "row";
    const label = document.createElement("span");
    label.className = "label";
    label.textContent = item.label;
    if (item.provenance && item.provenance !== "printed") {
      const tag = document.createElement("small");
      tag.className = "prov";
      tag.textContent = item.provenance;
      label.append(" ", tag);
    }
    th.append(label);
    if (item.detail) {
      const d = document.createElement("span");
      d.className = "detail";
      d.textContent = item.detail;
      th.append(d);
    }
    const td = document.createElement("td");
    td.className = "num " + (item.points < 0 ? "neg" : item.points > 0 ? "pos" : "");
    td.textContent = signed(item.points);
    tr.append(th, td);
    body.append(tr);
  }
}

function renderBreakdown(bd) {
  state.breakdown = bd;
  $("#error").hidden = true;
  $("#result").hidden = false;
  renderItems($("#items"), bd.items);
  const oppBox = $("#opponent");
  oppBox.hidden = !bd.opponent;
  if (bd.opponent) {
    renderItems($("#opp-items"), bd.opponent.items || []);
    $("#opp-total").textContent = bd.opponent.total === null ? "incomplete" : bd.opponent.total;
  }
  $("#total").textContent = bd.total;
  const verdict = $("#verdict");
  const won = bd.game === "wagons" ? (bd.result ? bd.result === "win" : null) : bd.won;
  verdict.className = "verdict " + (won === true ? "won" : won === false ? "lost" : "");
  const opp = bd.opponent && bd.opponent.total !== null && bd.opponent.total !== undefined ? bd.opponent.total : null;
  const target = bd.target !== null && bd.target !== undefined ? ` · target ${bd.target}` : opp !== null ? ` · opponent ${opp}` : "";
  const outcome = verdictText(bd);
  verdict.innerHTML = `<span class="big"></span><span class="small"></span>`;
  verdict.querySelector(".big").textContent = `${bd.total} points`;
  verdict.querySelector(".small").textContent = `${outcome}${target}`;
  const notes = $("#notes");
  notes.replaceChildren();
  for (const n of bd.notes || []) {
    const li = document.createElement("li");
    li.textContent = n;
    notes.append(li);
  }
  const sticky = $("#sticky");
  sticky.hidden = false;
  sticky.textContent = `Total ${bd.total}${target}${won === true ? " · win" : won === false ? " · short" : ""}`;
  sticky.className = "sticky " + (won === true ? "won" : won === false ? "lost" : "");
  announceScore(bd);
}

function verdictText(bd) {
  if (bd.game === "wagons") {
    if (bd.result) return { win: "You beat the opponent!", tie: "A tie with the opponent", loss: "The opponent wins" }[bd.result];
    return "Circle the Wagons";
  }
  return bd.won === true ? "You win!" : bd.won === false ? "Not this time" : "No target (no scoring cards)";
}

function showError(err) {
  // The breakdown on screen no longer matches the inputs: hide it rather than show a stale score.
  $("#result").hidden = true;
  $("#sticky").hidden = true;
  const box = $("#error");
  box.hidden = false;
  box.textContent = err.message || String(err);
  box.scrollIntoView({ block: "nearest", behavior: "smooth" });
}

function renderWarnings(warnings) {
  const ul = $("#warnings");
  ul.replaceChildren();
  for (const w of warnings || []) {
    const li = document.createElement("li");
    li.textContent = typeof w === "string" ? w : (w.message || JSON.stringify(w));
    ul.append(li);
  }
}

// ---- API -------------------------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, code, message) { super(message); this.status = status; this.code = code; }
}

async function api(path, body) {
  const res = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await res.json(); } catch { /* not JSON: reported below */ }
  if (!res.ok) {
    const e = (data && data.error) || { code: "http_" + res.status, message: `The server answered ${res.status}.` };
    throw new ApiError(res.status, e.code, e.message);
  }
  return data;
}

function scoreBody() {
  if (state.game === "wagons") {
    const options = {};
    if (state.goals.length) options.goals = state.goals;
    if (state.scenario) options.scenario = state.scenario;
    if (state.pile.trim()) options["opponent-pile"] = state.pile.trim();
    return { game: "wagons", city: cityText(), options };
  }
  const body = { city: cityText(), variant: state.variant || null, options: state.options };
  if (state.cards.length) body.cards = state.cards;
  body.expansions = state.expansions;
  return body;
}

async function rescore() {
  if (!state.rows.length) return;
  const seq = ++state.seq;
  $("#city-text").value = cityText();
  try {
    const bd = await api("/api/v1/score", scoreBody());
    if (seq !== state.seq) return;
    adoptCanonicalGrid(bd.city);
    renderBreakdown(bd);
  } catch (err) {
    if (seq === state.seq) showError(err);
  }
}

// The server answers with the city in canonical spelling ("R:ES" typed → "R:SE"): show the grid that way.
function adoptCanonicalGrid(text) {
  const parsed = parseCityText(text);
  const same = parsed.rows.length === state.rows.length && parsed.rows.every((row, r) => row.join(" ") === state.rows[r].join(" "));
  if (same || !parsed.rows.length) return;
  state.rows = parsed.rows;
  state.interstate = parsed.interstate;
  renderGrid();
  $("#city-text").value = cityText();
}

function adoptCity(text) {
  const parsed = parseCityText(text);
  state.rows = parsed.rows;
  state.interstate = parsed.interstate;
  state.headers = parsed.headers;
  if (parsed.cards && parsed.cards.length) state.cards = parsed.cards;
  if (parsed.expansions) state.expansions = parsed.expansions;
  if (parsed.goals) state.goals = parsed.goals;
  if (parsed.scenario !== undefined) state.scenario = parsed.scenario;
  if (parsed.pile !== undefined) state.pile = parsed.pile;
  renderGrid();
  if (state.game === "wagons") renderGoals(); else renderChips();
  $("#city-text").value = cityText();
}

function upload(file) {
  const limit = state.meta && state.meta.max_upload_bytes;
  if (limit && file.size > limit) {
    showError(new Error(`This photo is ${(file.size / 1e6).toFixed(1)} MB; the server takes up to ${limit / 1e6} MB.`));
    return;
  }
  const box = $("#upload");
  const bar = $("#upload-progress");
  const text = $("#upload-text");
  box.hidden = false;
  bar.value = 0;
  bar.max = 100;
  text.textContent = `Uploading ${(file.size / 1e6).toFixed(1)} MB…`;
  const form = new FormData();
  form.append("image", file);
  if (state.cards.length) form.append("cards", state.cards.join(" "));
  if (state.expansions.length) form.append("expansions", state.expansions.join(" "));
  if (state.variant) form.append("variant", state.variant);
  if (Object.keys(state.options).length) form.append("options", JSON.stringify(state.options));
  const xhr = new XMLHttpRequest();
  xhr.open("POST", "/api/v1/scans");
  xhr.responseType = "json";
  xhr.upload.onprogress = (e) => {
    if (e.lengthComputable) bar.value = Math.round((100 * e.loaded) / e.total);
  };
  xhr.upload.onload = () => {
    bar.removeAttribute("value"); // indeterminate while the server reads the city
    text.textContent = "Reading the city…";
  };
  xhr.onerror = () => { box.hidden = true; showError(new Error("The upload failed: check your connection.")); };
  xhr.onload = () => {
    box.hidden = true;
    const data = xhr.response;
    if (xhr.status !== 200) {
      const e = (data && data.error) || { message: `The server answered ${xhr.status}.` };
      showError(new ApiError(xhr.status, e.code, e.message));
      return;
    }
    state.scanId = data.scan_id;
    state.unsure = new Set(
      (data.cells || []).filter((cell) => cell.confidence < UNSURE_BELOW).map((cell) => `${cell.row},${cell.col}`),
    );
    adoptCity(data.city);
    if (data.cards && data.cards.length) { state.cards = data.cards; renderChips(); }
    renderWarnings(data.warnings);
    const fig = $("#overlay-box");
    if (data.overlay) {
      $("#overlay").src = data.overlay;
      fig.hidden = false;
    } else {
      fig.hidden = true;
    }
    renderBreakdown(data);
    $("#score-h").scrollIntoView({ behavior: "smooth" });
  };
  xhr.send(form);
}

async function checkTally() {
  const out = $("#tally-result");
  out.replaceChildren();
  const tally = $("#tally").value;
  if (!tally.trim()) { out.textContent = "Write your tally first."; return; }
  if (!state.rows.length) { out.textContent = "Scan or type a city first."; return; }
  try {
    const report = await api("/api/v1/check", { ...scoreBody(), tally });
    renderTally(report);
  } catch (err) {
    const p = document.createElement("p");
    p.className = "error";
    p.textContent = err.message;
    out.append(p);
  }
}

function tallyRow(cls, title, nums, why) {
  const li = document.createElement("li");
  li.className = cls;
  const head = document.createElement("div");
  head.className = "tally-head";
  const name = document.createElement("span");
  name.textContent = `${cls === "agree" ? "✓" : cls === "disagree" ? "✗" : "?"} ${title}`;
  const num = document.createElement("span");
  num.className = "num";
  num.textContent = nums;
  head.append(name, num);
  li.append(head);
  if (why) {
    const d = document.createElement("div");
    d.className = "detail";
    d.textContent = why;
    li.append(d);
  }
  return li;
}

// report: the engine's TallyReport JSON (lines with agree true/false/null, missed items, totals).
function renderTally(report) {
  const out = $("#tally-result");
  out.replaceChildren();
  const lines = report.lines || [];
  const total = report.total || {};
  const missed = (report.missed || []).filter((item) => item.points);
  const bad = lines.filter((l) => l.agree !== true).length + missed.length + (total.difference ? 1 : 0);
  const summary = document.createElement("p");
  summary.className = "tally-summary " + (report.agree ? "agree" : "disagree");
  summary.textContent = report.agree
    ? "Your tally agrees with the computed score."
    : `${bad} line${bad === 1 ? "" : "s"} to look at · your total ${total.tally}, computed ${total.computed}`;
  out.append(summary);
  const list = document.createElement("ul");
  list.className = "tally-lines";
  for (const l of lines) {
    const cls = l.agree === true ? "agree" : l.agree === false ? "disagree" : "unmatched";
    const computed = l.computed === null || l.computed === undefined ? "—" : signed(l.computed);
    const same = !l.label || l.label.toLowerCase() === String(l.item).toLowerCase();
    const title = same ? l.item : `${l.item} (${l.label})`;
    list.append(tallyRow(cls, title, `you ${signed(l.points)} · computed ${computed}`, l.why));
  }
  for (const item of missed) {
    list.append(tallyRow("unmatched", `not in your tally: ${item.label}`, `computed ${signed(item.points)}`, item.detail));
  }
  if (total.stated !== null && total.stated !== undefined) {
    const diff = total.difference;
    const why = diff ? `your total is ${diff > 0 ? "over" : "under"} by ${Math.abs(diff)}` : "";
    list.append(tallyRow(diff ? "disagree" : "agree", "total", `you ${total.stated} · computed ${total.computed}`, why));
  }
  out.append(list);
}

// ---- cell editor -----------------------------------------------------------------------------------------

function buildRoadChoices() {
  const box = $("#roads");
  for (const road of ["", ...ROADS]) {
    const label = document.createElement("label");
    label.className = "road-choice";
    const input = document.createElement("input");
    input.type = "radio";
    input.name = "road";
    input.value = road;
    label.append(input, roadSvg(road, "road-icon"));
    const span = document.createElement("span");
    span.textContent = road ? road : "none";
    label.append(span);
    label.title = road ? `road ${SIDE_NAMES[road[0]]}–${SIDE_NAMES[road[1]]}` : "no road";
    box.append(label);
  }
}

function syncEditorControls() {
  const form = $("#editor-form");
  if (state.game === "wagons") {
    const empty = form.elements.terrain.value === ".";
    for (const input of form.querySelectorAll('input[name="icon"]')) input.disabled = empty;
    return;
  }
  const kind = form.elements.kind.value;
  const isBlock = "RCIP".includes(kind) && kind.length === 1;
  const roadsOk = isBlock && kind !== "P";
  for (const input of form.querySelectorAll('input[name="road"]')) input.disabled = !roadsOk && input.value !== "";
  if (!roadsOk) form.elements.road.value = "";
  form.elements.poi.disabled = !isBlock;
  form.elements.construction.disabled = !isBlock;
}

function buildTerritoryChoices() {
  const add = (box, name, value, letter, text, cls) => {
    const label = document.createElement("label");
    label.className = cls;
    label.innerHTML = `<input type="radio" name="${name}" value="${value}"><b></b><span></span>`;
    label.querySelector("b").textContent = letter;
    label.querySelector("span").textContent = text;
    box.append(label);
  };
  for (const [letter, name] of Object.entries(TERRAINS)) add($("#terrains"), "terrain", letter, letter, name, "t-" + letter);
  add($("#terrains"), "terrain", ".", ".", "empty", "k-empty");
  for (const [letter, name] of Object.entries(ICONS)) add($("#icons"), "icon", letter, letter, name, "k-icon");
}

function openEditor(r, c) {
  state.editing = [r, c];
  const form = $("#editor-form");
  $("#editor-h").textContent = `Cell ${cellName(r, c)}`;
  if (state.game === "wagons") {
    const t = parseTerritory(state.rows[r][c]);
    form.elements.terrain.value = t ? t.terrain : ".";
    form.elements.icon.value = t ? t.icon : "w";
    syncEditorControls();
    $("#editor").showModal();
    return;
  }
  const cell = parseToken(state.rows[r][c]);
  form.elements.kind.value = cell.kind;
  form.elements.road.value = cell.road;
  form.elements.poi.checked = cell.poi;
  form.elements.construction.checked = cell.construction;
  syncEditorControls();
  $("#editor").showModal();
}

function editedToken(form) {
  if (state.game === "wagons") {
    const terrain = form.elements.terrain.value;
    return terrain === "." ? "." : `${terrain}/${form.elements.icon.value || "w"}`;
  }
  return makeToken({
    kind: form.elements.kind.value,
    road: form.elements.road.value,
    poi: form.elements.poi.checked,
    construction: form.elements.construction.checked,
  });
}

function closeEditor(ev) {
  const dialog = $("#editor");
  if (dialog.returnValue !== "ok" || !state.editing) return;
  const [r, c] = state.editing;
  const form = $("#editor-form");
  state.rows[r][c] = editedToken(form);
  state.unsure.delete(`${r},${c}`);
  renderGrid();
  rescore();
  const btn = $(`#grid .cell[data-row="${r}"][data-col="${c}"]`);
  if (btn) btn.focus();
  void ev;
}

function editGrid(action) {
  state.unsure.clear();
  const cols = state.rows[0].length;
  if (action === "add-row") state.rows.push(Array(cols).fill("."));
  if (action === "add-col") state.rows.forEach((row) => row.push("."));
  if (action === "del-row" && state.rows.length > 1) state.rows.pop();
  if (action === "del-col" && cols > 1) state.rows.forEach((row) => row.pop());
  if (state.interstate !== null && state.interstate >= state.rows.length) state.interstate = null;
  renderGrid();
  rescore();
}

// ---- wiring ----------------------------------------------------------------------------------------------

function wire() {
  for (const input of [$("#photo"), $("#photo-library")]) {
    input.addEventListener("change", (e) => {
      const file = e.target.files && e.target.files[0];
      if (file) upload(file);
      e.target.value = "";
    });
  }
  $("#grid").addEventListener("click", (e) => {
    const btn = e.target.closest(".cell");
    if (btn) openEditor(Number(btn.dataset.row), Number(btn.dataset.col));
  });
  $("#grid-tools").addEventListener("click", (e) => {
    const btn = e.target.closest("button[data-grid]");
    if (btn) editGrid(btn.dataset.grid);
  });
  $("#interstate").addEventListener("change", (e) => {
    state.interstate = e.target.value === "" ? null : Number(e.target.value);
    renderGrid();
    rescore();
  });
  $("#editor-form").addEventListener("change", syncEditorControls);
  $("#editor").addEventListener("close", closeEditor);
  $("#score-text").addEventListener("click", () => {
    state.scanId = null;
    state.unsure.clear();
    adoptCity($("#city-text").value);
    if (!state.rows.length) { showError(new Error("The text holds no rows of cells.")); return; }
    rescore();
  });
  $("#cards").addEventListener("click", (e) => {
    const b = e.target.closest("[data-card]");
    if (!b) return;
    const n = Number(b.dataset.card);
    state.cards = state.cards.includes(n) ? state.cards.filter((x) => x !== n) : [...state.cards, n];
    b.setAttribute("aria-pressed", String(state.cards.includes(n)));
    rescore();
  });
  $("#expansions").addEventListener("click", (e) => {
    const b = e.target.closest("[data-expansion]");
    if (!b) return;
    const name = b.dataset.expansion;
    state.expansions = state.expansions.includes(name)
      ? state.expansions.filter((x) => x !== name) : [...state.expansions, name];
    b.setAttribute("aria-pressed", String(state.expansions.includes(name)));
    renderExpansionOptions();
    rescore();
  });
  $("#exp-options").addEventListener("change", (e) => {
    const input = e.target.closest("[data-option]");
    if (!input) return;
    if (input.value === "") delete state.options[input.dataset.option];
    else state.options[input.dataset.option] = input.dataset.kind === "number" ? Number(input.value) : input.value;
    rescore();
  });
  $("#variant").addEventListener("change", (e) => { state.variant = e.target.value; rescore(); });
  $("#check").addEventListener("click", checkTally);
  for (const radio of document.querySelectorAll('input[name="game"]')) {
    radio.addEventListener("change", (e) => setGame(e.target.value));
  }
  $("#goals").addEventListener("click", (e) => {
    const b = e.target.closest("[data-goal]");
    if (!b) return;
    const id = b.dataset.goal;
    state.goals = state.goals.includes(id) ? state.goals.filter((x) => x !== id) : [...state.goals, id];
    b.setAttribute("aria-pressed", String(state.goals.includes(id)));
    rescore();
  });
  $("#scenario").addEventListener("change", (e) => {
    // A scenario plays with its own two goal cards (Wildest West may be added).
    state.scenario = e.target.value;
    const scenario = state.meta.wagons.scenarios.find((s) => s.id === state.scenario);
    if (scenario) state.goals = [...scenario.goals, ...state.goals.filter((g) => g === "wildest-west")];
    renderGoals();
    rescore();
  });
  $("#pile").addEventListener("change", (e) => { state.pile = e.target.value; rescore(); });
  $("#items").addEventListener("click", (e) => highlightItem(e.target.closest("tr")));
  document.addEventListener("sprawlscan:restore", (e) => restoreGame(e.detail));
  $("#items").addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); highlightItem(e.target.closest("tr")); }
  });
}

function setGame(game) {
  state.game = game;
  state.unsure.clear();
  state.rows = [];
  state.interstate = null;
  state.headers = [];
  state.scanId = null;
  state.breakdown = null;
  for (const el of document.querySelectorAll(".sprawl-only")) el.hidden = game !== "sprawlopolis";
  for (const el of document.querySelectorAll(".wagons-only")) el.hidden = game !== "wagons";
  $("#result").hidden = true;
  $("#error").hidden = true;
  $("#sticky").hidden = true;
  $("#tally-result").replaceChildren();
  $("#city-text").value = EXAMPLES[game];
  $("#grid-hint").textContent = game === "wagons" ? "No town yet: type one below." : "No city yet: scan a photo, or type one below.";
  $("#text-box").open = game === "wagons";
  $("#city-h").textContent = game === "wagons" ? "2 · Town" : "2 · City";
  $("#text-box summary").textContent = game === "wagons" ? "Type or paste a town" : "Type or paste a city";
  renderGrid();
  if (game === "wagons") renderGoals(); else renderChips();
}

function highlightItem(tr) {
  if (!tr || !state.breakdown) return;
  const item = state.breakdown.items.find((i) => i.key === tr.dataset.key);
  const already = tr.classList.contains("active");
  for (const row of document.querySelectorAll("#items tr.active")) row.classList.remove("active");
  if (already || !item || !item.cells) { renderGrid(); return; }
  tr.classList.add("active");
  renderGrid(new Set(item.cells));
}

// ---- hooks for games.js (saved games, history, statistics: an ES module of its own) ----------------------

function announceScore(bd) {
  const detail = { request: scoreBody(), breakdown: bd, scanId: state.scanId };
  document.dispatchEvent(new CustomEvent("sprawlscan:scored", { detail }));
}

function restoreGame({ request, scanId }) {
  const game = request.game === "wagons" ? "wagons" : "sprawlopolis";
  document.querySelector(`input[name="game"][value="${game}"]`).checked = true;
  setGame(game);
  const o = request.options || {};
  if (game === "wagons") Object.assign(state, { goals: o.goals || [], scenario: o.scenario || "", pile: o["opponent-pile"] || "" });
  else Object.assign(state, { cards: request.cards || [], expansions: request.expansions || [], variant: request.variant || "", options: { ...o } });
  $("#variant").value = state.variant;
  state.scanId = scanId || null;
  adoptCity(request.city);
  rescore();
}

async function init() {
  buildRoadChoices();
  buildTerritoryChoices();
  wire();
  try {
    state.meta = await api("/api/v1/meta");
    // The browser may restore the game chosen before a reload.
    setGame(document.querySelector('input[name="game"]:checked').value);
    document.dispatchEvent(new CustomEvent("sprawlscan:ready"));
  } catch (err) {
    showError(err);
  }
}

document.addEventListener("DOMContentLoaded", init);
