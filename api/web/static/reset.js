// "Start over": forget everything of the last game, not only its city: the cards and where they came from,
// the expansions and their options, the variant, the Circle the Wagons choices, the scan's photo and
// warnings, the tally, the draft kept on the phone and (through games.js) the last scored game.
import { $ } from "./dom.js";
import { state } from "./state.js";
import { clearDraft } from "./storage.js";
import { forgetScan } from "./scan.js";
import { forgetCardInfo } from "./cards.js";

export function forgetGame() {
  clearDraft();
  forgetScan();
  Object.assign(state, {
    cards: [], cardsFrom: null, cardsPicked: false, expansions: [], options: {}, variant: "",
    goals: [], scenario: "", pile: "", highlightKey: null, highlight: new Set(), selected: null,
    origin: null, gameSaved: false,
  });
  $("#tally-result").replaceChildren();
  $("#variant").value = "";
  $("#tally").value = "";
  $("#error").hidden = true;
  forgetCardInfo();
  document.dispatchEvent(new CustomEvent("sprawlscan:start-over"));
}
