// The cell dialog: tap a cell (in the grid or on the photo) to say what is really there.
import { $, el, emit } from "./dom.js";
import { ICONS, ROADS, TERRAINS, cellName, makeToken, parseTerritory, parseToken, roadName } from "./city.js";
import { roadSvg } from "./grid.js";
import { key, state } from "./state.js";

let editing = null; // [row, col]

function buildChoices() {
  const roads = $("#roads");
  for (const road of ["", ...ROADS]) {
    const label = el("label", { class: "road-choice", title: road ? `road ${roadName(road)}` : "no road" },
      el("input", { type: "radio", name: "road", value: road }), roadSvg(road, "road-icon"), el("span", { text: road || "none" }));
    roads.append(label);
  }
  const add = (box, name, value, letter, text, cls) => box.append(el("label", { class: cls },
    el("input", { type: "radio", name, value }), el("b", { text: letter }), el("span", { text })));
  for (const [letter, name] of Object.entries(TERRAINS)) add($("#terrains"), "terrain", letter, letter, name, "t-" + letter);
  add($("#terrains"), "terrain", ".", ".", "empty", "k-empty");
  for (const [letter, name] of Object.entries(ICONS)) add($("#icons"), "icon", letter, letter, name, "k-icon");
}

function syncControls() {
  const form = $("#editor-form");
  if (state.game === "wagons") {
    const empty = form.elements.terrain.value === ".";
    for (const input of form.querySelectorAll('input[name="icon"]')) input.disabled = empty;
    return;
  }
  const kind = form.elements.kind.value;
  const isBlock = ["R", "C", "I", "P"].includes(kind);
  const roadsOk = isBlock && kind !== "P";
  for (const input of form.querySelectorAll('input[name="road"]')) input.disabled = !roadsOk && input.value !== "";
  if (!roadsOk) form.elements.road.value = "";
  form.elements.poi.disabled = !isBlock;
  form.elements.construction.disabled = !isBlock;
}

export function openEditor(r, c) {
  editing = [r, c];
  const form = $("#editor-form");
  $("#editor-h").textContent = `Cell ${cellName(r, c)}`;
  if (state.game === "wagons") {
    const t = parseTerritory(state.rows[r][c]);
    form.elements.terrain.value = t ? t.terrain : ".";
    form.elements.icon.value = t ? t.icon : "w";
  } else {
    const cell = parseToken(state.rows[r][c]);
    form.elements.kind.value = cell.kind;
    form.elements.road.value = cell.road;
    form.elements.poi.checked = cell.poi;
    form.elements.construction.checked = cell.construction;
  }
  syncControls();
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

function closeEditor() {
  if ($("#editor").returnValue !== "ok" || !editing) return;
  const [r, c] = editing;
  state.rows[r][c] = editedToken($("#editor-form"));
  state.doubts.delete(key(r, c));
  emit("city-edited", { focus: [r, c] });
}

export function wireEditor() {
  buildChoices();
  $("#editor-form").addEventListener("change", syncControls);
  $("#editor").addEventListener("close", closeEditor);
}
