// What the page holds: the city being edited (rows of cell tokens), the choices made, and the last answer.
import { formatCity } from "./city.js";

export const state = {
  game: "sprawlopolis",
  goals: [],         // Circle the Wagons goal-card ids
  scenario: "",      // Lone Cowboy scenario id
  pile: "",          // the opponent's pile, as typed
  rows: [],          // string[][] of cell tokens
  interstate: null,  // rows above the interstate line, or null
  headers: [],       // other "key: value" header lines of the scanned or typed city, kept as they were
  cards: [],
  cardsFrom: null,   // where the cards came from: "backs" | "city" | "both" (a scan), "given" (the player),
                     // "text" (the typed city's cards line), "saved" (a saved game), or null
  cardsPicked: false, // the player picked cards since the last scan: the next photo is sent with them
  warnings: [],      // the last scan's warnings
  expansions: [],
  options: {},
  variant: "",
  scanId: null,
  origin: null,      // where the game on the page came from: "photo" | "typed" | "saved", or null
  gameSaved: false,  // it was saved since (games.js says "sprawlscan:saved")
  scanned: null,     // Map "r,c" -> the token the scanner read, to tell corrections apart
  outlines: null,    // Map "r,c" -> the cell's corners as fractions of the photo (from the scan)
  breakdown: null,
  meta: null,
  selected: null,    // "r,c" of the cell last tapped (shown in the grid and on the photo)
  highlight: new Set(), // cell names ("B3") of the breakdown line tapped
  highlightKey: null,   // that line's key, kept across rescoring
  doubts: new Map(), // "r,c" -> {row, col, reading, why, alternatives: [{label, total}]} of the scan's doubt
  retake: null,      // why the scanner asks for another photo (and what to change), or null
  retakeScored: false, // the city of that photo was corrected by hand and scored since
  brush: null,       // paint mode: {type: "zone" | "road" | "terrain" | "icon", value}, or null when off
  seq: 0,            // request counter: only the newest answer is shown
};

export const key = (r, c) => `${r},${c}`;

export function cityText() { return formatCity(state.rows, state.interstate, state.headers); }

export function isGoalId(word) {
  return Boolean(state.meta && state.meta.wagons && state.meta.wagons.goals.some((g) => g.id === word));
}

// The request body for /api/v1/score and /api/v1/check.
export function scoreBody() {
  if (state.game === "wagons") {
    const options = {};
    if (state.goals.length) options.goals = state.goals;
    if (state.scenario) options.scenario = state.scenario;
    if (state.pile.trim()) options["opponent-pile"] = state.pile.trim();
    return { game: "wagons", city: cityText(), options };
  }
  const body = { city: cityText(), variant: state.variant || null, options: state.options };
  if (state.cards.length) body.cards = state.cards;
  body.expansions = state.expansions;
  return body;
}
