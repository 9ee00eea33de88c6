// The engine and the scanner explain themselves for the command line ("--cards", "--option KEY=N",
// "a 'key: N' header"); on the page the same advice points at the page's own controls.
import { state } from "./state.js";

function optionLabel(name) {
  for (const exp of (state.meta && state.meta.expansions) || []) {
    const opt = (exp.options || []).find((o) => o.name === name);
    if (opt) return `“${opt.label}” under ${exp.label}`;
  }
  return `“${name}”`;
}

function expansionLabel(name) {
  const exp = ((state.meta && state.meta.expansions) || []).find((e) => e.name === name);
  return exp ? exp.label : name;
}

const value = (v) => (/^[A-Z]+$/.test(v) ? "" : ` to “${v}”`); // N, CARD: placeholders, not values

const RULES = [
  [/\(?(?:give (?:their numbers|them)|pass them) (?:with )?\(?--cards\)?\)?/g, () => "pick them under 3 · Scoring cards"],
  [/\(?add it with --expansion (\S+?) or an '[^']*' header\)?/g, (_, n) => `(turn on ${expansionLabel(n)} under Expansions)`],
  [/(pass |with )?--option beach-cards=[^\s,)]+/g, (_, w) => `${w === "pass " ? "pick" : "with"} a Beach card under Expansions`],
  [/\b([Pp])ass --option ([a-z-]+)=([A-Za-z-]+)(?:,? or an? '[^']*' header)?(?:, N being ([^).]*))?/g,
    (_, p, n, v, being) => `${p === "P" ? "Set" : "set"} ${optionLabel(n)}${value(v)}${being ? `: ${being}` : ""}`],
  [/with --option ([a-z-]+)=N \(or an? '[^']*' header line\)/g, (_, n) => `in “${n}”`],
  [/--option ([a-z-]+)=([A-Za-z-]+)/g, (_, n, v) => `${optionLabel(n)}${value(v)}`],
  [/or --expansion beach:([a-z-]+)/g, (_, n) => `or ${expansionLabel("beach:" + n)}`],
  [/--expansion ([a-z:-]+)/g, (_, n) => expansionLabel(n)],
  [/\(--opponent-pile [^)]*\)/g, () => "(the Opponent's pile field)"],
  [/\(--opponent-town FILE\)/g, () => "(the command line only)"],
  [/\(--opponent-pile or --opponent-town\)/g, () => "(the Opponent's pile field)"],
  [/\(?(?:,? ?or)? an? '[^']*' header(?: line)?\)?/g, () => ""],
];

export function pageWords(text) {
  let out = String(text);
  for (const [pattern, replace] of RULES) out = out.replace(pattern, replace);
  // Anything the rules above did not know still must not read as a command-line flag.
  return out.replace(/(^|\s)--([a-z][a-z-]*)/g, (_, pre, name) => `${pre}“${name.replace(/-/g, " ")}”`);
}
