// The engine and the scanner explain themselves for the command line ("--cards", "--option KEY=N",
// "a 'key: N' header"); on the page the same advice points at the page's own controls. Each game's page
// module says how its own flags read on the page (gamepage.js: wordRules); what is left is said here.
import { games } from "./gamepage.js";

const RULES = [
  [/\(?(?:,? ?or)? an? '[^']*' header(?: line)?\)?/g, () => ""],
];

export function pageWords(text) {
  let out = String(text);
  for (const [pattern, replace] of [...games().flatMap((g) => g.wordRules || []), ...RULES]) out = out.replace(pattern, replace);
  // Anything the rules above did not know still must not read as a command-line flag.
  return out.replace(/(^|\s)--([a-z][a-z-]*)/g, (_, pre, name) => `${pre}“${name.replace(/-/g, " ")}”`);
}
