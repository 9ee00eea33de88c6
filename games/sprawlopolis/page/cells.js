// Sprawlopolis cells on the page: a block's zone, its road, its marks (docs/city-format.md), how a cell is
// drawn in the grid and on the photo, put in words, painted, and edited in the cell dialog.
import { el, svgEl } from "/static/dom.js";

export const ZONES = ["R", "C", "I", "P"];
export const ROADS = ["NS", "EW", "NE", "NW", "SE", "SW"];
export const ZONE_NAMES = { R: "residential", C: "commercial", I: "industrial", P: "park" };
const SIDE_NAMES = { N: "north", S: "south", E: "east", W: "west" };
const ZONE_WORDS = { R: "residential", C: "commercial", I: "industrial", P: "a park", W: "Wrecktar", "~": "a beach" };

// Road centre lines in a 140 × 100 block (the cards' 1.4 : 1 block aspect); curves are quarter ellipses.
const ROAD_PATHS = {
  NS: "M70 0 L70 100",
  EW: "M0 50 L140 50",
  NE: "M70 0 A70 50 0 0 0 140 50",
  NW: "M70 0 A70 50 0 0 1 0 50",
  SE: "M70 100 A70 50 0 0 1 140 50",
  SW: "M70 100 A70 50 0 0 0 0 50",
};

export function parseToken(token) {
  if (token === "W") return { kind: "W", road: "", poi: false, construction: false };
  if (token === "~") return { kind: "~", road: "", poi: false, construction: false };
  const m = /^([RCIP])(?::([NSEW]{2}))?([*!]*)$/.exec(token);
  if (!m) return { kind: ".", road: "", poi: false, construction: false };
  return { kind: m[1], road: m[2] || "", poi: m[3].includes("*"), construction: m[3].includes("!") };
}

export function makeToken({ kind, road, poi, construction }) {
  if (!ZONES.includes(kind)) return kind;
  let t = kind;
  if (road && kind !== "P") t += ":" + road;
  if (poi) t += "*";
  if (construction) t += "!";
  return t;
}

export const roadName = (road) => `${SIDE_NAMES[road[0]]}–${SIDE_NAMES[road[1]]}`;

export function roadSvg(road, cls) {
  const svg = svgEl("svg", { viewBox: "0 0 140 100", "aria-hidden": "true", class: cls || "road" });
  if (road) {
    svg.append(svgEl("path", { d: ROAD_PATHS[road], class: "asphalt" }));
    svg.append(svgEl("path", { d: ROAD_PATHS[road], class: "centre" }));
  }
  return svg;
}

export function describe(token) {
  const cell = parseToken(token);
  if (cell.kind === ".") return "no block";
  if (cell.kind === "W") return "Wrecktar";
  if (cell.kind === "~") return "beach";
  let text = ZONE_NAMES[cell.kind];
  if (cell.road) text += `, road ${roadName(cell.road)}`;
  if (cell.poi) text += ", Point of Interest";
  if (cell.construction) text += ", construction zone";
  return text;
}

// "If it is a park", "If it is industrial with a road east–west", "If there is no block".
export function ifItIs(label) {
  const cell = parseToken(label);
  if (cell.kind === ".") return "If there is no block";
  return `If it is ${ZONE_WORDS[cell.kind]}${cell.road ? ` with a road ${roadName(cell.road)}` : ""}`;
}

export function readAs(label) {
  const cell = parseToken(label);
  if (cell.kind === ".") return "no block";
  return `${ZONE_WORDS[cell.kind].replace(/^a /, "")}${cell.road ? ` with a road ${roadName(cell.road)}` : ""} (${label})`;
}

export function cellClass(token) {
  const kind = parseToken(token).kind;
  return `z-${kind === "." ? "empty" : kind === "~" ? "beach" : kind}`;
}

// The grid's button for a cell: its zone colour, its road, its marks and its token.
export function drawCell(btn, token) {
  const cell = parseToken(token);
  if (cell.poi) btn.classList.add("poi");
  if (cell.construction) btn.classList.add("construction");
  btn.append(roadSvg(cell.road), el("span", { class: "tok", text: cell.kind === "." ? "" : token }));
}

const MID = { N: [0.5, 0], S: [0.5, 1], E: [1, 0.5], W: [0, 0.5] };

// The road drawn over the photo: points in the cell's unit square (u along the row, v down the column).
export function overlayLines(token) {
  const road = parseToken(token).road;
  if (!road) return [];
  const a = MID[road[0]];
  const b = MID[road[1]];
  if (road === "NS" || road === "EW") return [[a, b]];
  const corner = [a[0] + b[0] - 0.5, a[1] + b[1] - 0.5]; // the cell corner the curve turns around
  const da = [a[0] - corner[0], a[1] - corner[1]];
  const db = [b[0] - corner[0], b[1] - corner[1]];
  const pts = [];
  for (let i = 0; i <= 8; i++) {
    const t = (i / 8) * (Math.PI / 2);
    pts.push([corner[0] + da[0] * Math.cos(t) + db[0] * Math.sin(t), corner[1] + da[1] * Math.cos(t) + db[1] * Math.sin(t)]);
  }
  return [pts];
}

export function brushes() {
  return [
    ...Object.entries(ZONE_NAMES).map(([v, name]) => ({ type: "zone", value: v, text: v, title: name, cls: "k-" + v })),
    { type: "zone", value: ".", text: ".", title: "no block", cls: "k-empty" },
    ...ROADS.map((v) => ({ type: "road", value: v, text: v, title: `road ${roadName(v)}`, cls: "k-road", icon: roadSvg(v, "road-icon") })),
    { type: "road", value: "", text: "no road", title: "no road", cls: "k-road", icon: roadSvg("", "road-icon") },
  ];
}

export function describeBrush(brush) {
  if (brush.type === "road") return brush.value ? `road ${roadName(brush.value)}` : "no road";
  return brush.value === "." ? "no block" : ZONE_NAMES[brush.value];
}

// A brush applied to one token; the same token when it does not apply (a road on a park).
export function paint(token, brush) {
  const cell = parseToken(token);
  if (brush.type === "zone") {
    if (brush.value === ".") return ".";
    const wasBlock = ZONES.includes(cell.kind);
    return makeToken({
      kind: brush.value,
      road: brush.value === "P" || !wasBlock ? "" : cell.road,
      poi: wasBlock && cell.poi,
      construction: wasBlock && cell.construction,
    });
  }
  if (brush.type === "road" && ["R", "C", "I"].includes(cell.kind)) return makeToken({ ...cell, road: brush.value });
  return token;
}
