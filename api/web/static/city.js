// The city (and town) text format: rows of cell tokens <-> text, and what a token means.
// See docs/city-format.md; the server stays the only judge of what a city scores.

export const ZONES = ["R", "C", "I", "P"];
export const ROADS = ["NS", "EW", "NE", "NW", "SE", "SW"];
export const ZONE_NAMES = { R: "residential", C: "commercial", I: "industrial", P: "park" };
export const SIDE_NAMES = { N: "north", S: "south", E: "east", W: "west" };
export const TERRAINS = { D: "desert", F: "forest", M: "mountains", P: "plains", S: "snow", W: "water" };
export const ICONS = { b: "beer", c: "cow", f: "fort", g: "gun", m: "mine", w: "wagon" };

// Road centre lines in a 140 × 100 block (the cards' 1.4 : 1 block aspect); curves are quarter ellipses.
export const ROAD_PATHS = {
  NS: "M70 0 L70 100",
  EW: "M0 50 L140 50",
  NE: "M70 0 A70 50 0 0 0 140 50",
  NW: "M70 0 A70 50 0 0 1 0 50",
  SE: "M70 100 A70 50 0 0 1 140 50",
  SW: "M70 100 A70 50 0 0 0 0 50",
};

export const EXAMPLES = {
  sprawlopolis: "R:EW  I:EW  R:EW  C:EW\nP     C:SE  I:SW  P\n.     C:NS  P     R:NS\n",
  wagons: ".    .    .    .    P/c  P/f\nD/w  D/g  D/f  P/b  P/m  F/b\nD/c  M/f  M/c  M/c  P/g  .\n" +
    "W/m  W/b  M/f  M/m  .    .\nS/w  W/g  D/b  M/w  .    .\n",
};

// Column letters as in the breakdown: A … Z, AA, AB …
export function columnName(c) {
  let letters = "";
  let n = c + 1;
  while (n) { const rem = (n - 1) % 26; letters = String.fromCharCode(65 + rem) + letters; n = Math.floor((n - 1) / 26); }
  return letters;
}

export function cellName(r, c) { return `${columnName(c)}${r + 1}`; }

// Header lines the page edits itself are taken out; any other "key: value" is kept as it was.
export function parseCityText(text, game, isGoalId) {
  const out = { rows: [], interstate: null, headers: [], cards: null, expansions: null, goals: null };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.split("#")[0].trim();
    if (!line) continue;
    const header = /^([A-Za-z][A-Za-z0-9_-]+)\s*:\s*(.*)$/.exec(line);
    if (header && out.rows.length === 0) {
      const key = header[1].toLowerCase();
      const value = header[2].trim();
      const words = value.split(/[\s,]+/).filter(Boolean);
      if (key === "cards" && game === "sprawlopolis") out.cards = words.map(Number);
      else if (key === "expansions" && game === "sprawlopolis") out.expansions = words;
      else if (key === "goals" && game === "wagons" && words.every(isGoalId)) out.goals = words;
      else if (key === "scenario" && game === "wagons") out.scenario = value;
      else if (key === "opponent-pile" && game === "wagons") out.pile = value;
      else if (key !== "game") out.headers.push([key, value]);
      continue;
    }
    if (/^=+$/.test(line)) { out.interstate = out.rows.length; continue; }
    out.rows.push(line.split(/\s+/));
  }
  return out;
}

export function formatCity(rows, interstate, headers) {
  const lines = headers.map(([k, v]) => `${k}: ${v}`);
  const widths = [];
  rows.forEach((row) => row.forEach((t, c) => { widths[c] = Math.max(widths[c] || 1, t.length); }));
  rows.forEach((row, r) => {
    if (interstate !== null && r === interstate) lines.push("=".repeat(Math.max(3, row.length * 6)));
    lines.push(row.map((t, c) => t.padEnd(widths[c])).join("  ").trimEnd());
  });
  return lines.join("\n") + "\n";
}

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

export function parseTerritory(token) {
  const m = /^([DFMPSW])\/([bcfgmw])$/.exec(token);
  return m ? { terrain: m[1], icon: m[2] } : null;
}

export function roadName(road) { return `${SIDE_NAMES[road[0]]}–${SIDE_NAMES[road[1]]}`; }

export function describeToken(token, game) {
  if (game === "wagons") {
    const t = parseTerritory(token);
    return t ? `${TERRAINS[t.terrain]} with a ${ICONS[t.icon]}` : "empty";
  }
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

// A brush from paint mode applied to one token; returns the new token (the same one when it does not apply).
export function paintToken(token, brush, game) {
  if (game === "wagons") {
    const t = parseTerritory(token);
    if (brush.type === "terrain") return brush.value === "." ? "." : `${brush.value}/${t ? t.icon : "w"}`;
    if (brush.type === "icon") return t ? `${t.terrain}/${brush.value}` : token;
    return token;
  }
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
