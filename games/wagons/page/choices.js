// The Circle the Wagons choices beside the town: the goal cards in play, a Lone Cowboy scenario (it brings
// its two goal cards) and the opponent's pile. A town is scanned with none of them: a scanned town is
// scored with the goals picked here once it is on the page.
import { $, el, emit } from "/static/dom.js";
import { restoredFields } from "/static/gamepage.js";
import { state } from "/static/state.js";
import { renderPile, wirePile } from "./pile.js";

const SECTION = `
  <h2 id="goals-h">3 · Goal cards and opponent</h2>
  <p class="hint">Pick the goal cards in play. For a Lone Cowboy game pick the scenario (it brings its two
    goal cards) and tap the cards in the opponent's pile: each is drawn as its four territories.</p>
  <div id="goals" class="chips" role="group" aria-label="Goal cards"></div>
  <label class="inline">Scenario <select id="scenario"><option value="">none</option></select></label>
  <h3>Opponent's pile <small id="pile-count"></small></h3>
  <div id="pile-cards" class="pile-cards" role="group" aria-label="The opponent's pile: tap its cards"></div>`;

const isGoalId = (word) => Boolean(state.meta && state.meta.wagons && state.meta.wagons.goals.some((g) => g.id === word));

export const fresh = () => ({ goals: [], scenario: "", pile: "" });

// A kept draft's choices (an older page kept them at the draft's top level).
export const restore = (saved) => restoredFields(fresh(), saved);

export function fromSaved(request) {
  const o = request.options || {};
  return { goals: o.goals || [], scenario: o.scenario || "", pile: [].concat(o["opponent-pile"] || []).join(" ") };
}

// A "goals:" line is the page's only when every word is a goal card's id (else it stays a header, as typed).
export const owns = (key, words) => (key === "goals" ? words.every(isGoalId) : key === "scenario" || key === "opponent-pile");

export function fromHeaders(ch, headers) {
  for (const [key, value, words] of headers) {
    if (key === "goals") ch.goals = words;
    if (key === "scenario") ch.scenario = value;
    if (key === "opponent-pile") ch.pile = value;
  }
}

export function body(ch) {
  const options = {};
  if (ch.goals.length) options.goals = ch.goals;
  if (ch.scenario) options.scenario = ch.scenario;
  if (ch.pile.trim()) options["opponent-pile"] = ch.pile.trim();
  return { options };
}

export const scanForm = () => {};
export const fromScan = () => {};
export const dropPhotoCards = () => {};
export const provenance = () => null;
export const forget = () => {};

// A town comes scored with no goal cards: the goals picked on the page score it now.
export const rescoreAfterScan = (ch, data) => JSON.stringify(data.goals || []) !== JSON.stringify(ch.goals);

export function mount(box) {
  box.insertAdjacentHTML("beforeend", SECTION);
}

export function render(ch) {
  const w = state.meta && state.meta.wagons;
  if (!w) return;
  // Every goal card's wording is printed (the print-and-play sheets confirm it), so a chip needs no badge.
  $("#goals").replaceChildren(...w.goals.map((goal) =>
    el("button", { type: "button", class: "chip", "data-goal": goal.id, "aria-pressed": String(ch.goals.includes(goal.id)), text: goal.name })));
  const sel = $("#scenario");
  sel.replaceChildren(new Option("none", ""));
  for (const s of w.scenarios) sel.append(new Option(s.name, s.id));
  sel.value = ch.scenario;
  renderPile(ch);
}

const toggled = (list, x) => (list.includes(x) ? list.filter((y) => y !== x) : [...list, x]);

export function wire(current) {
  $("#goals").addEventListener("click", (e) => {
    const b = e.target.closest("[data-goal]");
    if (!b) return;
    const ch = current();
    ch.goals = toggled(ch.goals, b.dataset.goal);
    b.setAttribute("aria-pressed", String(ch.goals.includes(b.dataset.goal)));
    emit("choices-changed");
  });
  $("#scenario").addEventListener("change", (e) => {
    // A scenario plays with its own two goal cards (Wildest West may be added).
    const ch = current();
    ch.scenario = e.target.value;
    const scenario = state.meta.wagons.scenarios.find((s) => s.id === ch.scenario);
    if (scenario) ch.goals = [...scenario.goals, ...ch.goals.filter((g) => g === "wildest-west")];
    render(ch);
    emit("choices-changed");
  });
  wirePile(current);
}
