// Choices beside the city: Sprawlopolis scoring cards (a tap puts one in the game or takes it out, and shows
// what it counts), expansions and
// their options; Circle the Wagons goal cards, scenario and the opponent's pile.
import { $, el, emit } from "./dom.js";
import { state } from "./state.js";
import { renderPile, wirePile } from "./pile.js";

export function renderChips() {
  const meta = state.meta;
  if (!meta) return;
  $("#cards").replaceChildren(...meta.cards.map(({ number, name }) => el(
    "button",
    { type: "button", class: "chip card-chip", "data-card": number, "aria-pressed": String(state.cards.includes(number)) },
    el("b", { text: String(number) }), el("span", { text: name }),
  )));
  $("#expansions").replaceChildren(...meta.expansions.map(({ name, label }) => el(
    "button",
    { type: "button", class: "chip", "data-expansion": name, "aria-pressed": String(state.expansions.includes(name)), text: label },
  )));
  renderExpansionOptions();
  renderCardInfo();
}

// What the cards in play count, in the project's words (from /api/v1/meta); the card tapped last first.
let lastTapped = null;
const IN_A_GAME = 3; // a Sprawlopolis game has exactly three scoring cards

export function forgetCardInfo() {
  lastTapped = null;
  $("#cards-note").textContent = "";
}

// Tap: in the game or out again. A fourth card replaces the one that has been in the game longest, and
// the note under the cards says which.
function tapCard(n) {
  let note = "";
  if (state.cards.includes(n)) state.cards = state.cards.filter((x) => x !== n);
  else if (state.cards.length >= IN_A_GAME) {
    const [out, ...rest] = state.cards;
    state.cards = [...rest, n];
    note = `Card ${n} replaces card ${out}: a Sprawlopolis game has three scoring cards.`;
  } else state.cards = [...state.cards, n];
  state.cardsFrom = "given";
  state.cardsPicked = true;
  lastTapped = n;
  $("#cards-note").textContent = note;
}

export function renderCardInfo() {
  const box = $("#card-info");
  if (!state.meta) return;
  const numbers = [...new Set([lastTapped, ...state.cards].filter((n) => n !== null))];
  box.replaceChildren(...numbers.map((n) => {
    const card = state.meta.cards.find((c) => c.number === n);
    const inPlay = state.cards.includes(n);
    return el("li", { class: inPlay ? "in-play" : "", "data-card": n },
      el("b", { text: `${n} · ${card.name}` }),
      el("span", { class: "counts", text: ` ${card.counts}` }),
      el("small", { text: inPlay ? " In play." : " Not in play." }));
  }));
  box.hidden = numbers.length === 0;
}

function renderExpansionOptions() {
  const box = $("#exp-options");
  box.replaceChildren();
  for (const exp of state.meta.expansions) {
    if (!state.expansions.includes(exp.name)) continue;
    for (const opt of exp.options || []) {
      let input;
      if (opt.choices) {
        input = el("select");
        for (const choice of opt.choices) input.append(new Option(choice || "—", choice));
      } else {
        input = el("input", { type: "number", inputmode: "numeric", step: "1" });
      }
      input.dataset.option = opt.name;
      input.dataset.kind = opt.choices ? "choice" : "number";
      if (state.options[opt.name] !== undefined) input.value = state.options[opt.name];
      box.append(el("label", { class: "inline", text: opt.label + " " }, input));
    }
  }
}

export function renderGoals() {
  const w = state.meta && state.meta.wagons;
  if (!w) return;
  // Every goal card's wording is printed (the print-and-play sheets confirm it), so a chip needs no badge.
  $("#goals").replaceChildren(...w.goals.map((goal) =>
    el("button", { type: "button", class: "chip", "data-goal": goal.id, "aria-pressed": String(state.goals.includes(goal.id)), text: goal.name })));
  const sel = $("#scenario");
  sel.replaceChildren(new Option("none", ""));
  for (const s of w.scenarios) sel.append(new Option(s.name, s.id));
  sel.value = state.scenario;
  renderPile();
}

const toggled = (list, x) => (list.includes(x) ? list.filter((y) => y !== x) : [...list, x]);

export function wireChoices() {
  $("#cards").addEventListener("click", (e) => {
    const b = e.target.closest("[data-card]");
    if (!b) return;
    tapCard(Number(b.dataset.card));
    for (const chip of $("#cards").querySelectorAll("[data-card]")) {
      chip.setAttribute("aria-pressed", String(state.cards.includes(Number(chip.dataset.card))));
    }
    renderCardInfo();
    emit("choices-changed");
  });
  $("#expansions").addEventListener("click", (e) => {
    const b = e.target.closest("[data-expansion]");
    if (!b) return;
    state.expansions = toggled(state.expansions, b.dataset.expansion);
    b.setAttribute("aria-pressed", String(state.expansions.includes(b.dataset.expansion)));
    renderExpansionOptions();
    emit("choices-changed");
  });
  $("#exp-options").addEventListener("change", (e) => {
    const input = e.target.closest("[data-option]");
    if (!input) return;
    if (input.value === "") delete state.options[input.dataset.option];
    else state.options[input.dataset.option] = input.dataset.kind === "number" ? Number(input.value) : input.value;
    emit("choices-changed");
  });
  $("#variant").addEventListener("change", (e) => { state.variant = e.target.value; emit("choices-changed"); });
  $("#goals").addEventListener("click", (e) => {
    const b = e.target.closest("[data-goal]");
    if (!b) return;
    state.goals = toggled(state.goals, b.dataset.goal);
    b.setAttribute("aria-pressed", String(state.goals.includes(b.dataset.goal)));
    emit("choices-changed");
  });
  $("#scenario").addEventListener("change", (e) => {
    // A scenario plays with its own two goal cards (Wildest West may be added).
    state.scenario = e.target.value;
    const scenario = state.meta.wagons.scenarios.find((s) => s.id === state.scenario);
    if (scenario) state.goals = [...scenario.goals, ...state.goals.filter((g) => g === "wildest-west")];
    renderGoals();
    emit("choices-changed");
  });
  wirePile();
}
