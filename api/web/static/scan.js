// A photo scanned: its city, its own choices (a city photo's scoring cards, sent only when the player
// picked them for this scan), where they came from and the scan's warnings, both shown with the score; a failed scan clears the
// last one's photo and warnings and says what went wrong beside the upload, where the player is looking.
// After a reload the photo comes back from the server while it keeps the scan, or the page says it is gone.
import { $, el, scrollBehaviour } from "./dom.js";
import { api, privateImage } from "./api.js";
import { parseCityText } from "./city.js";
import { choices, game } from "./gamepage.js";
import { key, state } from "./state.js";
import { hidePhoto, showPhoto } from "./overlay.js";
import { uploadPhoto } from "./upload.js";
import { pageWords } from "./wording.js";
import { clearDoubts } from "./doubt.js";
import { clearScanNote, renderScanNote } from "./notice.js";

// Set once this browser has scanned a photo of a game: a game's hint before its first photo (to teach the
// deck first) is shown until then, and not once that game's deck is taught (deck.js sets data-deck-games
// and says "sprawlscan:deck").
const SCANNED = "sprawlscan.scanned-games";

function scannedGames() {
  try { return JSON.parse(localStorage.getItem(SCANNED) || "[]"); } catch { return []; }
}

export function renderPhotoHint() {
  const hint = game().words.photoHint;
  const taught = (document.documentElement.dataset.deckGames || "").split(" ").includes(state.game);
  const box = $("#game-photo-hint");
  box.hidden = !hint || taught || scannedGames().includes(state.game);
  box.innerHTML = box.hidden ? "" : hint;
}
window.addEventListener("sprawlscan:deck", renderPhotoHint);

function rememberScanned(name) {
  const seen = scannedGames();
  if (seen.includes(name)) return;
  try { localStorage.setItem(SCANNED, JSON.stringify([...seen, name])); } catch { /* the hint shows again */ }
}

// The line beside the score saying which cards scored it and where they came from (a game whose choices
// have no such line says nothing).
export function renderProvenance() {
  const text = game().choices.provenance(choices(), Boolean(state.scanId));
  const node = $("#cards-source");
  node.hidden = text === null;
  node.textContent = text || "";
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
  game().choices.dropPhotoCards(choices());
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
  state.warnings = data.warnings || [];
  adopt(data); // the page follows the game the scanner told, and takes the photo's own choices (its cards)
  renderScanNote(data, file, state.game !== before);
  rememberScanned(state.game);
  renderPhotoHint();
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
    const read = parseCityText(data.city || "", game().choices.owns).rows;
    state.scanned = new Map(read.flatMap((row, r) => row.map((t, c) => [key(r, c), t])));
    if (data.overlay) await showPhoto(await privateImage(data.overlay), data.cells); // the device's own
    shown = !$("#overlay-box").hidden;
  } catch { /* gone, or the server is out of reach: said below */ }
  note.textContent = shown ? "Your photo as the server kept it, with the cells read drawn on it: it is kept only for a while." : NOT_KEPT;
  note.hidden = false;
}
