// "Start over": forget everything of the last game, not only its city: the choices made for it (the
// cards, expansions, goal cards… and where they came from), the scan's photo and warnings, the tally, the
// draft kept on the phone and (through games.js) the last scored game.
import { $ } from "./dom.js";
import { game } from "./gamepage.js";
import { state } from "./state.js";
import { clearDraft } from "./storage.js";
import { forgetScan } from "./scan.js";

export function forgetGame() {
  clearDraft();
  forgetScan();
  Object.assign(state, {
    choicesOf: {}, highlightKey: null, highlight: new Set(), selected: null, origin: null, gameSaved: false,
  });
  $("#tally-result").replaceChildren();
  $("#tally").value = "";
  $("#error").hidden = true;
  game().choices.forget();
  document.dispatchEvent(new CustomEvent("sprawlscan:start-over"));
}
