// Circle the Wagons on the phone page: the game's own words, cells and choices, behind the face every
// game gives the page (api/web/static/gamepage.js says what each part is for).
import * as cells from "./cells.js";
import * as choices from "./choices.js";
import * as editor from "./editor.js";
import { wordRules } from "./wording.js";
import { state } from "/static/state.js";

const goal = (id) => ((state.meta && state.meta.wagons && state.meta.wagons.goals.find((g) => g.id === id)) || {}).name || "";

export default {
  stylesheet: new URL("./page.css", import.meta.url).href,
  words: {
    lead: "Photograph or type in your finished town, fix anything, get the score and check your tally.",
    heading: "2 · Town", typeIt: "Type or paste a town", score: "Score this town",
    empty: "No town yet: scan a photo, type one below, or start an empty grid and paint it.",
    textHint: `One line per row, cells separated by spaces: a territory letter (<code>D</code>esert,
      <code>F</code>orest, <code>M</code>ountains, <code>P</code>lains, <code>S</code>now, <code>W</code>ater),
      <code>/</code> and its icon (<code>b</code>eer, <code>c</code>ow, <code>f</code>ort, <code>g</code>un,
      <code>m</code>ine, <code>w</code>agon), e.g. <code>D/w</code>; <code>.</code> is empty.`,
    tallyHint: `Write what you counted, one line each, e.g. <code>desert 4</code>, <code>cool water 3</code>,
      <code>total 20</code>.`,
    // Shown before this browser's first town photo while no deck of this game is taught.
    photoHint: `Before your first town scan, <a href="#deck-card">teach the scanner your deck</a> (7 · Teach
      your deck): it knows the Circle the Wagons art only from the rulebook's key of colours and icons, not
      from photos of real cards, so one photo of your own 18 cards teaches it the colours and drawings of your
      print, and your towns read more surely.`,
    // Said after the page switched to this game for a photo read without a taught deck.
    untaught: "with one photo of your 18 Circle the Wagons cards, and your towns read more surely.",
    deckNote: `Circle the Wagons too: lay your 18 Circle the Wagons cards the same way. The scanner tells
      which game's cards they are and uses the deck for photos of that game only (a deck of each game is kept
      side by side: teaching one game's keeps the other's).`,
  },
  example: ".    .    .    .    P/c  P/f\nD/w  D/g  D/f  P/b  P/m  F/b\nD/c  M/f  M/c  M/c  P/g  .\n" +
    "W/m  W/b  M/f  M/m  .    .\nS/w  W/g  D/b  M/w  .    .\n",
  interstate: false,
  firstBrush: { type: "terrain", value: "D" },
  startsTyped: true, // the text box opens on an empty town: most towns are typed in
  cells,
  editor,
  choices,
  wordRules,
  verdict(bd) {
    const words = { win: "You beat the opponent!", tie: "A tie with the opponent", loss: "The opponent wins" };
    return { text: bd.result ? words[bd.result] : "Circle the Wagons", won: bd.result ? bd.result === "win" : null };
  },
  playedWith: (cards) => `goals ${cards}`,
  cardName: goal,
  // A taught deck's places as the player may correct them: cards 0 to 17, or a place with no card.
  deckChoices: () => [
    ...Array.from({ length: 18 }, (_, n) => ({ value: String(n), label: `Card ${n}` })),
    { value: "none", label: "Not a card" },
  ],
  taughtMessage: () => "All 18 Circle the Wagons cards found: check them against your table. Your town scans now read with your deck.",
};
