// The cell dialog's fields for a Sprawlopolis cell: what is here (a zone, no block, Wrecktar, a beach), its
// road, and its marks (Point of Interest, unfinished construction zone).
import { el } from "/static/dom.js";
import { ROADS, makeToken, parseToken, roadName, roadSvg } from "./cells.js";

const KINDS = [
  ["R", "Residential"], ["C", "Commercial"], ["I", "Industrial"], ["P", "Park"],
  [".", "No block", "k-empty"], ["W", "Wrecktar"], ["~", "Beach", "k-beach"],
];

function fieldset(legend, ...children) {
  return el("fieldset", {}, el("legend", { text: legend }), ...children);
}

export function build(box) {
  const kinds = el("div", { class: "kinds" });
  for (const [value, name, cls] of KINDS) {
    kinds.append(el("label", { class: cls || `k-${value}` },
      el("input", { type: "radio", name: "kind", value }), el("b", { text: value }), el("span", { text: name })));
  }
  const roads = el("div", { class: "roads", id: "roads" });
  for (const road of ["", ...ROADS]) {
    roads.append(el("label", { class: "road-choice", title: road ? `road ${roadName(road)}` : "no road" },
      el("input", { type: "radio", name: "road", value: road }), roadSvg(road, "road-icon"), el("span", { text: road || "none" })));
  }
  const marks = fieldset("Marks",
    el("label", { class: "check" }, el("input", { type: "checkbox", name: "poi" }), " Point of Interest"),
    el("label", { class: "check" }, el("input", { type: "checkbox", name: "construction" }), " Unfinished construction zone"));
  marks.id = "mark-set";
  const roadSet = fieldset("Road", roads);
  roadSet.id = "road-set";
  box.replaceChildren(fieldset("What is here", kinds), roadSet, marks);
}

export function fill(form, token) {
  const cell = parseToken(token);
  form.elements.kind.value = cell.kind;
  form.elements.road.value = cell.road;
  form.elements.poi.checked = cell.poi;
  form.elements.construction.checked = cell.construction;
}

// A park has no road; no block, Wrecktar and a beach have neither road nor marks.
export function sync(form) {
  const kind = form.elements.kind.value;
  const isBlock = ["R", "C", "I", "P"].includes(kind);
  const roadsOk = isBlock && kind !== "P";
  for (const input of form.querySelectorAll('input[name="road"]')) input.disabled = !roadsOk && input.value !== "";
  if (!roadsOk) form.elements.road.value = "";
  form.elements.poi.disabled = !isBlock;
  form.elements.construction.disabled = !isBlock;
}

export function read(form) {
  return makeToken({
    kind: form.elements.kind.value,
    road: form.elements.road.value,
    poi: form.elements.poi.checked,
    construction: form.elements.construction.checked,
  });
}
