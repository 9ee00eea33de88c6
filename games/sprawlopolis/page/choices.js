// The Sprawlopolis choices beside the city: the scoring cards (a tap puts one in the game or takes it out,
// and shows what it counts), the expansions with their options, and the variant. A photo's own cards come
// with its scan; where the cards came from is said beside the score.
import { $, el, emit } from "/static/dom.js";
import { restoredFields } from "/static/gamepage.js";
import { state } from "/static/state.js";

const IN_A_GAME = 3; // a Sprawlopolis game has exactly three scoring cards
const FROM_PHOTO = ["backs", "city", "both"];
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

const SECTION = `
  <h2 id="cards-h">3 · Scoring cards</h2>
  <p id="cards-hint" class="hint">Tap a card to put it in the game, tap it again to take it out; what each
    card counts shows below. A game has three: a fourth replaces the one picked first. A photo's own cards
    are filled in when the scanner reads them.</p>
  <div id="cards" class="chips" role="group" aria-label="Scoring cards"></div>
  <p id="cards-note" class="cards-note" role="status" aria-live="polite"></p>
  <ul id="card-info" class="card-info" aria-live="polite" hidden></ul>
  <h3>Expansions</h3>
  <div id="expansions" class="chips" role="group" aria-label="Expansions"></div>
  <div id="exp-options" class="exp-options"></div>
  <label class="inline variant">Variant
    <select id="variant">
      <option value="">standard</option>
      <option value="easier">easier: no road penalty</option>
      <option value="harder">harder: one zone only</option>
    </select>
  </label>`;

let lastTapped = null; // the card tapped last: its counts show first

export function fresh() {
  return { cards: [], cardsFrom: null, cardsPicked: false, expansions: [], options: {}, variant: "" };
}

// A kept draft's choices (an older page kept them at the draft's top level).
export const restore = (saved) => restoredFields(fresh(), saved);

export function fromSaved(request) {
  return { ...fresh(), cards: request.cards || [], cardsFrom: "saved", expansions: request.expansions || [],
    variant: request.variant || "", options: { ...(request.options || {}) } };
}

export const owns = (key) => key === "cards" || key === "expansions";

// A typed city's cards line gives the cards; a scan's or a saved game's says the cards set already.
export function fromHeaders(ch, headers, from) {
  for (const [key, , words] of headers) {
    if (key === "cards" && words.length && from === "text") Object.assign(ch, { cards: words.map(Number), cardsFrom: "text" });
    if (key === "expansions") ch.expansions = words;
  }
}

export function body(ch) {
  const out = { variant: ch.variant || null, options: ch.options, expansions: ch.expansions };
  if (ch.cards.length) out.cards = ch.cards;
  return out;
}

// Only cards the player picked for this photo go with it: a new photo reads its own.
export function scanForm(ch, form) {
  if (ch.cardsPicked && ch.cards.length) form.append("cards", ch.cards.join(" "));
  if (ch.expansions.length) form.append("expansions", ch.expansions.join(" "));
  if (ch.variant) form.append("variant", ch.variant);
  if (Object.keys(ch.options).length) form.append("options", JSON.stringify(ch.options));
}

export function fromScan(ch, data) {
  ch.cards = (data.cards || []).filter(Number.isInteger);
  ch.cardsFrom = ch.cards.length ? data.cards_source : null;
  ch.cardsPicked = false;
}

export const rescoreAfterScan = () => false;

// The cards a photo brought belong to that photo: another city drops them; cards the player gave stay.
export function dropPhotoCards(ch) {
  if (FROM_PHOTO.includes(ch.cardsFrom)) Object.assign(ch, { cards: [], cardsFrom: null });
}

// The line beside the score saying which cards scored it and where they came from.
export function provenance(ch, scanned) {
  if (!ch.cards.length) return scanned ? `No scoring cards: none read from this photo; ${PICK}.` : `No scoring cards: ${PICK}.`;
  return `Scoring cards ${ch.cards.join(", ")}: ${CARDS_SOURCE[ch.cardsFrom] || CARDS_SOURCE.given}.`;
}

export function mount(box) {
  box.insertAdjacentHTML("beforeend", SECTION);
}

export function render(ch) {
  const meta = state.meta;
  if (!meta) return;
  $("#cards").replaceChildren(...meta.cards.map(({ number, name }) => el(
    "button",
    { type: "button", class: "chip card-chip", "data-card": number, "aria-pressed": String(ch.cards.includes(number)) },
    el("b", { text: String(number) }), el("span", { text: name }),
  )));
  $("#expansions").replaceChildren(...meta.expansions.map(({ name, label }) => el(
    "button",
    { type: "button", class: "chip", "data-expansion": name, "aria-pressed": String(ch.expansions.includes(name)), text: label },
  )));
  $("#variant").value = ch.variant;
  renderExpansionOptions(ch);
  renderCardInfo(ch);
}

export function forget() {
  lastTapped = null;
  $("#cards-note").textContent = "";
  $("#variant").value = "";
}

// Tap: in the game or out again. A fourth card replaces the one that has been in the game longest, and
// the note under the cards says which.
function tapCard(ch, n) {
  let note = "";
  if (ch.cards.includes(n)) ch.cards = ch.cards.filter((x) => x !== n);
  else if (ch.cards.length >= IN_A_GAME) {
    const [out, ...rest] = ch.cards;
    ch.cards = [...rest, n];
    note = `Card ${n} replaces card ${out}: a Sprawlopolis game has three scoring cards.`;
  } else ch.cards = [...ch.cards, n];
  ch.cardsFrom = "given";
  ch.cardsPicked = true;
  lastTapped = n;
  $("#cards-note").textContent = note;
}

// What the cards in play count, in the project's words (from /api/v1/meta); the card tapped last first.
function renderCardInfo(ch) {
  const box = $("#card-info");
  const numbers = [...new Set([lastTapped, ...ch.cards].filter((n) => n !== null))];
  box.replaceChildren(...numbers.map((n) => {
    const card = state.meta.cards.find((c) => c.number === n);
    const inPlay = ch.cards.includes(n);
    return el("li", { class: inPlay ? "in-play" : "", "data-card": n },
      el("b", { text: `${n} · ${card.name}` }),
      el("span", { class: "counts", text: ` ${card.counts}` }),
      el("small", { text: inPlay ? " In play." : " Not in play." }));
  }));
  box.hidden = numbers.length === 0;
}

function renderExpansionOptions(ch) {
  const box = $("#exp-options");
  box.replaceChildren();
  for (const exp of state.meta.expansions) {
    if (!ch.expansions.includes(exp.name)) continue;
    for (const opt of exp.options || []) {
      const input = opt.choices ? el("select") : el("input", { type: "number", inputmode: "numeric", step: "1" });
      for (const choice of opt.choices || []) input.append(new Option(choice || "—", choice));
      input.dataset.option = opt.name;
      input.dataset.kind = opt.choices ? "choice" : "number";
      if (ch.options[opt.name] !== undefined) input.value = ch.options[opt.name];
      box.append(el("label", { class: "inline", text: opt.label + " " }, input));
    }
  }
}

const toggled = (list, x) => (list.includes(x) ? list.filter((y) => y !== x) : [...list, x]);

// `current()`: the choices being edited (the page keeps them; a saved game or a scan may replace them).
export function wire(current) {
  $("#cards").addEventListener("click", (e) => {
    const b = e.target.closest("[data-card]");
    if (!b) return;
    const ch = current();
    tapCard(ch, Number(b.dataset.card));
    for (const chip of $("#cards").querySelectorAll("[data-card]")) {
      chip.setAttribute("aria-pressed", String(ch.cards.includes(Number(chip.dataset.card))));
    }
    renderCardInfo(ch);
    emit("choices-changed");
  });
  $("#expansions").addEventListener("click", (e) => {
    const b = e.target.closest("[data-expansion]");
    if (!b) return;
    const ch = current();
    ch.expansions = toggled(ch.expansions, b.dataset.expansion);
    b.setAttribute("aria-pressed", String(ch.expansions.includes(b.dataset.expansion)));
    renderExpansionOptions(ch);
    emit("choices-changed");
  });
  $("#exp-options").addEventListener("change", (e) => {
    const input = e.target.closest("[data-option]");
    if (!input) return;
    const ch = current();
    if (input.value === "") delete ch.options[input.dataset.option];
    else ch.options[input.dataset.option] = input.dataset.kind === "number" ? Number(input.value) : input.value;
    emit("choices-changed");
  });
  $("#variant").addEventListener("change", (e) => { current().variant = e.target.value; emit("choices-changed"); });
}
