// The engine's advice for the command line ("--cards", "--expansion NAME", "--option KEY=N") as it reads
// on the page: the scoring cards, expansions and their options under 3 · Scoring cards.
import { state } from "/static/state.js";

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

export const wordRules = [
  [/\(?(?:give (?:their numbers|them)|pass them) (?:with )?\(?--cards\)?\)?/g, () => "pick them under 3 · Scoring cards"],
  [/\(?add it with --expansion (\S+?) or an '[^']*' header\)?/g, (_, n) => `(turn on ${expansionLabel(n)} under Expansions)`],
  [/(pass |with )?--option beach-cards=[^\s,)]+/g, (_, w) => `${w === "pass " ? "pick" : "with"} a Beach card under Expansions`],
  [/\b([Pp])ass --option ([a-z-]+)=([A-Za-z-]+)(?:,? or an? '[^']*' header)?(?:, N being ([^).]*))?/g,
    (_, p, n, v, being) => `${p === "P" ? "Set" : "set"} ${optionLabel(n)}${value(v)}${being ? `: ${being}` : ""}`],
  [/with --option ([a-z-]+)=N \(or an? '[^']*' header line\)/g, (_, n) => `in “${n}”`],
  [/--option ([a-z-]+)=([A-Za-z-]+)/g, (_, n, v) => `${optionLabel(n)}${value(v)}`],
  [/or --expansion beach:([a-z-]+)/g, (_, n) => `or ${expansionLabel("beach:" + n)}`],
  [/--expansion ([a-z:-]+)/g, (_, n) => expansionLabel(n)],
];
