// A photo scanned: its city, its own scoring cards (sent only when the player picked them for this scan),
// where those cards came from and the scan's warnings, both shown with the score; a failed scan clears the
// last one's photo and warnings and says what went wrong beside the upload, where the player is looking.
// After a reload the photo comes back from the server while it keeps the scan, or the page says it is gone.
import { $, el, scrollBehaviour } from "./dom.js";
import { api, privateImage } from "./api.js";
import { parseCityText } from "./city.js";
import { isGoalId, key, state } from "./state.js";
import { hidePhoto, showPhoto } from "./overlay.js";
import { uploadPhoto } from "./upload.js";
import { pageWords } from "./wording.js";
import { clearDoubts } from "./doubt.js";
import { clearScanNote, renderScanNote } from "./notice.js";

// Where the scoring cards came from, in words (the scan JSON's cards_source; "given": the player's picks).
const CARDS_SOURCE = {
  both: "read from their backs in the photo, and the city agrees",
  backs: "read from their backs in the photo",
  city: "derived from the city in the photo (the three cards it does not use)",
  given: "given by you",
  text: "from the cards line of the city text",
  saved: "as saved with this game",
};
const PICK = "pick the three in play under 3 · Scoring cards";
// Set once this browser has scanned a town: the hint to teach the deck is shown before the first one (and
// not once a Circle the Wagons deck is taught: deck.js sets data-deck-games and says "sprawlscan:deck").
const TOWN_SCANNED = "sprawlscan.town-scanned";

export function renderTownHint() {
  let scanned = false;
  try { scanned = localStorage.getItem(TOWN_SCANNED) === "1"; } catch { /* no storage: keep the hint */ }
  const taught = (document.documentElement.dataset.deckGames || "").split(" ").includes("wagons");
  $("#town-photo-hint").hidden = state.game !== "wagons" || scanned || taught;
}
window.addEventListener("sprawlscan:deck", renderTownHint);

// The line beside the score saying which cards scored it and where they came from.
export function renderProvenance() {
  const node = $("#cards-source");
  node.hidden = state.game !== "sprawlopolis";
  if (node.hidden) return;
  if (!state.cards.length) {
    node.textContent = state.scanId ? `No scoring cards: none read from this photo; ${PICK}.` : `No scoring cards: ${PICK}.`;
  } else {
    const from = CARDS_SOURCE[state.cardsFrom] || CARDS_SOURCE.given;
    node.textContent = `Scoring cards ${state.cards.join(", ")}: ${from}.`;
  }
}

export function renderWarnings() {
  $("#warnings").replaceChildren(...state.warnings.map((w) => el("li", {
    text: pageWords(typeof w === "string" ? w : (w.message || JSON.stringify(w))),
  })));
}

// Forget what the last scan brought: its photo, warnings and the error of a failed one.
export function forgetScan() {
  hidePhoto();
  state.scanId = null;
  state.scanned = null;
  state.warnings = [];
  clearDoubts();
  clearScanNote();
  $("#scan-error").hidden = true;
  $("#photo-note").hidden = true;
  renderWarnings();
}

// The cards a photo brought belong to that photo: another city (typed, or a failed scan) drops them;
// cards the player gave stay.
export function dropPhotoCards() {
  if (["backs", "city", "both"].includes(state.cardsFrom)) { state.cards = []; state.cardsFrom = null; }
}

function scanFailed(err) {
  forgetScan();
  dropPhotoCards();
  // The score on screen belonged to the last photo, not this one.
  $("#result").hidden = true;
  $("#sticky").hidden = true;
  const box = $("#scan-error");
  box.textContent = pageWords(err.message || String(err));
  box.hidden = false;
  box.scrollIntoView({ block: "nearest", behavior: scrollBehaviour() });
}

// Upload `file` and hand the answer to `adopt(data, photoUrl)`, which puts the city on the page.
export async function scan(file, adopt) {
  let answer;
  try {
    answer = await uploadPhoto(file);
  } catch (err) {
    scanFailed(err);
    return;
  }
  const { data, photoUrl } = answer;
  $("#scan-error").hidden = true;
  $("#photo-note").hidden = true;
  clearScanNote();
  const before = state.game;
  state.scanId = data.scan_id;
  // This photo's own cards: what the scan chose (the player's, when they picked them for it), else none.
  // A town's "cards" are the cards it is built from, not scoring cards.
  state.cards = data.game === "wagons" ? [] : (data.cards || []).filter(Number.isInteger);
  state.cardsFrom = state.cards.length ? data.cards_source : null;
  state.cardsPicked = false;
  state.warnings = data.warnings || [];
  adopt(data);
  renderScanNote(data, file, state.game !== before);
  if (data.game === "wagons") {
    try { localStorage.setItem(TOWN_SCANNED, "1"); } catch { /* the hint shows again next time */ }
    renderTownHint();
  }
  if (photoUrl) showPhoto(photoUrl, data.cells);
  else privateImage(data.overlay).then((src) => showPhoto(src, data.cells)); // the device's own: fetched with its token
  $("#score-h").scrollIntoView({ behavior: scrollBehaviour() });
}

const NOT_KEPT = "Your photo is not kept after a reload (the server keeps a scan only for a while, and this one " +
  "is gone): the city, your corrections and your choices are. Take the photo again to see the cells on it.";

// After a reload: the scan's picture as the server drew it, with the cells outlined over it as before the
// reload (and the cells read, so that corrections show as such); when the server no longer has the scan,
// or cannot be reached, the page says the photo is not kept rather than dropping it silently.
export async function restorePhoto() {
  if (!state.scanId) return;
  const note = $("#photo-note");
  let shown = false;
  try {
    const data = await api(`/api/v1/scans/${encodeURIComponent(state.scanId)}`);
    const read = parseCityText(data.city || "", state.game, isGoalId).rows;
    state.scanned = new Map(read.flatMap((row, r) => row.map((t, c) => [key(r, c), t])));
    if (data.overlay) await showPhoto(await privateImage(data.overlay), data.cells); // the device's own
    shown = !$("#overlay-box").hidden;
  } catch { /* gone, or the server is out of reach: said below */ }
  note.textContent = shown ? "Your photo as the server kept it, with the cells read drawn on it: it is kept only for a while." : NOT_KEPT;
  note.hidden = false;
}
