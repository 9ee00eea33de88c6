// Keeps the city and the choices on this phone (localStorage), so a reload, a lost connection or a closed
// tab does not lose what the player entered. The photo itself is not kept: only the scan's id, to fetch
// its picture back while the server keeps the scan (scan.js says when it no longer does).
import { state } from "./state.js";

const KEY = "sprawlscan:draft:v1";
const FIELDS = ["game", "choicesOf", "rows", "interstate", "headers", "scanId", "origin"];

export function saveDraft(extra = {}) {
  try {
    const draft = Object.fromEntries(FIELDS.map((f) => [f, state[f]]));
    // What the scanner doubted, and a photo to retake: a reload must not score that city unchecked.
    Object.assign(draft, { doubts: [...state.doubts.values()], retake: state.retake, retakeScored: state.retakeScored });
    localStorage.setItem(KEY, JSON.stringify({ ...draft, ...extra }));
  } catch { /* storage full or disabled: nothing to keep */ }
}

export function loadDraft() {
  try {
    const draft = JSON.parse(localStorage.getItem(KEY) || "null");
    return draft && Array.isArray(draft.rows) ? draft : null;
  } catch {
    return null;
  }
}

export function clearDraft() {
  try { localStorage.removeItem(KEY); } catch { /* nothing kept */ }
}

// The server's lists of cards and expansions, kept so the page still opens without a connection.
const META_KEY = "sprawlscan:meta:v1";

export function saveMeta(meta) {
  try { localStorage.setItem(META_KEY, JSON.stringify(meta)); } catch { /* not kept */ }
}

export function loadMeta() {
  try { return JSON.parse(localStorage.getItem(META_KEY) || "null"); } catch { return null; }
}
