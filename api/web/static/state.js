// What the page holds: the city being edited (rows of cell tokens), the choices made, and the last answer.
import { formatCity } from "./city.js";

export const state = {
  game: "",          // the name of the game on the page (gamepage.js: its face)
  choicesOf: {},     // game name -> the choices the player made for it (that game's own shape)
  rows: [],          // string[][] of cell tokens
  interstate: null,  // rows above the interstate line, or null
  headers: [],       // other "key: value" header lines of the scanned or typed city, kept as they were
  warnings: [],      // the last scan's warnings
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
  brush: null,       // paint mode: a brush of the game's (gamepage.js: cells.brushes), or null when off
  seq: 0,            // request counter: only the newest answer is shown
};

export const key = (r, c) => `${r},${c}`;

export function cityText() { return formatCity(state.rows, state.interstate, state.headers); }
