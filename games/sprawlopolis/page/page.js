// Sprawlopolis on the phone page: the game's own words, cells and choices, behind the face every game
// gives the page (api/web/static/gamepage.js says what each part is for).
import * as cells from "./cells.js";
import * as choices from "./choices.js";
import * as editor from "./editor.js";
import { wordRules } from "./wording.js";
import { state } from "/static/state.js";

// The expansion cards a deck photo may hold beside the 18 (named before teaching, or in a correction).
const EXTRAS = {
  wrecktar: { label: "Wrecktar", short: "W" },
  poi: { label: "Point of Interest", short: "POI" },
  construction: { label: "Construction Zone", short: "CZ" },
};

export default {
  stylesheet: new URL("./page.css", import.meta.url).href,
  words: {
    lead: "Photograph your finished city, fix anything misread, get the score.",
    heading: "2 · City", typeIt: "Type or paste a city", score: "Score this city",
    empty: "No city yet: scan a photo, type one below, or start an empty grid and paint it.",
    textHint: `One line per row, cells separated by spaces: <code>R:EW</code> is residential with an
      east–west road, <code>P</code> a park, <code>.</code> no block, <code>*</code> Point of Interest,
      <code>!</code> construction zone, <code>W</code> Wrecktar, <code>~</code> beach, a line of
      <code>===</code> the interstate.`,
    tallyHint: `Write what you counted, one line each, e.g. <code>parks 7</code>, <code>roads -5</code>,
      <code>card 8: 4</code>, <code>total 35</code>.`,
  },
  example: "R:EW  I:EW  R:EW  C:EW\nP     C:SE  I:SW  P\n.     C:NS  P     R:NS\n",
  interstate: true,
  firstBrush: { type: "zone", value: "R" },
  startsTyped: false, // the text box stays shut: a city is scanned, or painted on an empty grid
  cells,
  editor,
  choices,
  wordRules,
  verdict(bd) {
    const text = bd.won === true ? "You win!" : bd.won === false ? "Not this time" : "No target (no scoring cards)";
    return { text, won: bd.won };
  },
  playedWith: (cards) => `cards ${cards}`,
  cardName: (card) => ((state.meta && state.meta.cards.find((c) => c.number === card)) || {}).name || "",
  // A taught deck's places as the player may correct them: its 18 cards and the expansion cards.
  deckChoices: () => [
    ...Array.from({ length: 18 }, (_, i) => ({ value: String(i + 1), label: `Card ${i + 1}` })),
    ...Object.entries(EXTRAS).map(([value, { label }]) => ({ value, label })),
  ],
  deckExtras: EXTRAS,
  taughtMessage(deck) {
    const named = deck.cards.filter((c) => c.extra).length;
    const also = named ? ` and ${named} expansion card${named > 1 ? "s" : ""}` : "";
    return `All 18 cards${also} found: check them against your table. Your scans now read with your deck.`;
  },
};
