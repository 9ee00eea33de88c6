// Circle the Wagons cells on the page: a territory and its icon ("D/w": desert with a wagon), how a cell is
// drawn in the grid and on the photo, put in words, painted, and edited in the cell dialog.
import { el } from "/static/dom.js";

export const TERRAINS = { D: "desert", F: "forest", M: "mountains", P: "plains", S: "snow", W: "water" };
export const ICONS = { b: "beer", c: "cow", f: "fort", g: "gun", m: "mine", w: "wagon" };

export function parseTerritory(token) {
  const m = /^([DFMPSW])\/([bcfgmw])$/.exec(token);
  return m ? { terrain: m[1], icon: m[2] } : null;
}

export function describe(token) {
  const t = parseTerritory(token);
  return t ? `${TERRAINS[t.terrain]} with a ${ICONS[t.icon]}` : "empty";
}

export const ifItIs = (label) => (label === "." ? "If there is no card here" : `If it is ${describe(label)} (${label})`);
export const readAs = (label) => (label === "." ? "empty" : `${describe(label)} (${label})`);

export function cellClass(token) {
  const t = parseTerritory(token);
  return t ? "t-" + t.terrain : "z-empty";
}

export function drawCell(btn, token) {
  const t = parseTerritory(token);
  if (t) btn.append(el("span", { class: "tok", text: token }), el("span", { class: "icon", text: ICONS[t.icon] }));
}

export const overlayLines = () => [];

export function overlayLabel(token) {
  const t = parseTerritory(token);
  return t ? `${t.terrain} ${ICONS[t.icon]}` : token;
}

export function brushes() {
  return [
    ...Object.entries(TERRAINS).map(([v, name]) => ({ type: "terrain", value: v, text: v, title: name, cls: "t-" + v })),
    { type: "terrain", value: ".", text: ".", title: "empty", cls: "k-empty" },
    ...Object.entries(ICONS).map(([v, name]) => ({ type: "icon", value: v, text: name, title: name, cls: "k-icon" })),
  ];
}

export function describeBrush(brush) {
  if (brush.type === "terrain") return brush.value === "." ? "empty" : TERRAINS[brush.value];
  return ICONS[brush.value];
}

// A territory keeps its icon when repainted (a new one gets a wagon); an icon needs a territory under it.
export function paint(token, brush) {
  const t = parseTerritory(token);
  if (brush.type === "terrain") return brush.value === "." ? "." : `${brush.value}/${t ? t.icon : "w"}`;
  if (brush.type === "icon") return t ? `${t.terrain}/${brush.value}` : token;
  return token;
}
