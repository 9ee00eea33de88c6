// The cell dialog's fields for a Circle the Wagons cell: its territory (or empty) and its icon.
import { el } from "/static/dom.js";
import { ICONS, TERRAINS, parseTerritory } from "./cells.js";

function choices(name, entries, id) {
  const box = el("div", { class: "kinds", id });
  for (const [value, text, cls] of entries) {
    box.append(el("label", { class: cls }, el("input", { type: "radio", name, value }), el("b", { text: value }), el("span", { text })));
  }
  return box;
}

export function build(box) {
  const terrains = [...Object.entries(TERRAINS).map(([v, name]) => [v, name, "t-" + v]), [".", "empty", "k-empty"]];
  const icons = Object.entries(ICONS).map(([v, name]) => [v, name, "k-icon"]);
  box.replaceChildren(
    el("fieldset", {}, el("legend", { text: "Territory" }), choices("terrain", terrains, "terrains")),
    el("fieldset", {}, el("legend", { text: "Icon" }), choices("icon", icons, "icons")),
  );
}

export function fill(form, token) {
  const t = parseTerritory(token);
  form.elements.terrain.value = t ? t.terrain : ".";
  form.elements.icon.value = t ? t.icon : "w";
}

// An empty place has no icon to choose.
export function sync(form) {
  const empty = form.elements.terrain.value === ".";
  for (const input of form.querySelectorAll('input[name="icon"]')) input.disabled = empty;
}

export function read(form) {
  const terrain = form.elements.terrain.value;
  return terrain === "." ? "." : `${terrain}/${form.elements.icon.value || "w"}`;
}
