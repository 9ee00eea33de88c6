// The grid text format every game's typed grid shares: rows of cell tokens separated by spaces, "key:
// value" header lines above them, a line of "===" between two rows (an interstate, where the game has
// one). What a token means is the game's (gamepage.js: its cells); the server is the only judge of what
// it scores.

// Column letters as in the breakdown: A … Z, AA, AB …
export function columnName(c) {
  let letters = "";
  let n = c + 1;
  while (n) { const rem = (n - 1) % 26; letters = String.fromCharCode(65 + rem) + letters; n = Math.floor((n - 1) / 26); }
  return letters;
}

export function cellName(r, c) { return `${columnName(c)}${r + 1}`; }

// Header lines the game's own choices read (`owns(key, words)`) are taken out into `owned` as
// [key, value, words]; any other "key: value" is kept as it was.
export function parseCityText(text, owns = () => false) {
  const out = { rows: [], interstate: null, headers: [], owned: [] };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.split("#")[0].trim();
    if (!line) continue;
    const header = /^([A-Za-z][A-Za-z0-9_-]+)\s*:\s*(.*)$/.exec(line);
    if (header && out.rows.length === 0) {
      const key = header[1].toLowerCase();
      const value = header[2].trim();
      const words = value.split(/[\s,]+/).filter(Boolean);
      if (owns(key, words)) out.owned.push([key, value, words]);
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
