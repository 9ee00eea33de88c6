// Paint mode's palette: pick a zone or a road (a territory or an icon in Circle the Wagons), then tap or
// drag over cells in the grid or on the photo.
import { $, el, emit } from "./dom.js";
import { ICONS, ROADS, TERRAINS, ZONE_NAMES, roadName } from "./city.js";
import { roadSvg } from "./grid.js";
import { state } from "./state.js";

function brushes() {
  if (state.game === "wagons") {
    return [
      ...Object.entries(TERRAINS).map(([v, name]) => ({ type: "terrain", value: v, text: v, title: name, cls: "t-" + v })),
      { type: "terrain", value: ".", text: ".", title: "empty", cls: "k-empty" },
      ...Object.entries(ICONS).map(([v, name]) => ({ type: "icon", value: v, text: name, title: name, cls: "k-icon" })),
    ];
  }
  return [
    ...Object.entries(ZONE_NAMES).map(([v, name]) => ({ type: "zone", value: v, text: v, title: name, cls: "k-" + v })),
    { type: "zone", value: ".", text: ".", title: "no block", cls: "k-empty" },
    ...ROADS.map((v) => ({ type: "road", value: v, text: v, title: `road ${roadName(v)}`, cls: "k-road" })),
    { type: "road", value: "", text: "no road", title: "no road", cls: "k-road" },
  ];
}

export function renderPalette() {
  const box = $("#palette");
  box.replaceChildren();
  for (const b of brushes()) {
    const btn = el("button", {
      type: "button", class: `brush ${b.cls}`, "data-type": b.type, "data-value": b.value,
      title: b.title, "aria-label": `paint ${b.title}`,
      "aria-pressed": String(Boolean(state.brush && state.brush.type === b.type && state.brush.value === b.value)),
    });
    if (b.type === "road") btn.append(roadSvg(b.value, "road-icon"));
    btn.append(el("span", { text: b.text }));
    box.append(btn);
  }
  const on = state.brush !== null;
  $("#paint-toggle").setAttribute("aria-pressed", String(on));
  $("#paint-toggle").textContent = on ? "Done painting" : "Paint";
  $("#paint-box").hidden = !on;
  $("#paint-hint").textContent = on
    ? `Painting ${describe(state.brush)}: tap or drag over cells.`
    : "";
}

function describe(brush) {
  if (brush.type === "road") return brush.value ? `road ${roadName(brush.value)}` : "no road";
  if (brush.type === "zone") return brush.value === "." ? "no block" : ZONE_NAMES[brush.value];
  if (brush.type === "terrain") return brush.value === "." ? "empty" : TERRAINS[brush.value];
  return ICONS[brush.value];
}

export function wirePalette() {
  $("#paint-toggle").addEventListener("click", () => {
    state.brush = state.brush ? null : brushes()[0];
    renderPalette();
    emit("paint-mode");
  });
  $("#palette").addEventListener("click", (e) => {
    const btn = e.target.closest(".brush");
    if (!btn) return;
    state.brush = { type: btn.dataset.type, value: btn.dataset.value };
    renderPalette();
  });
}
