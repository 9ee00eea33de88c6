// Circle the Wagons, Lone Cowboy: the opponent's pile picked by what a player sees on the table, each card
// drawn as its four territories (from /api/v1/meta), never by the project's own card numbers. The pile is
// kept as the numbers the service takes ("1 4 7").
import { $, el, emit } from "/static/dom.js";
import { state } from "/static/state.js";
import { ICONS, TERRAINS } from "./cells.js";

const pileNumbers = (ch) => ch.pile.split(/\s+/).filter((w) => /^\d+$/.test(w)).map(Number);

function cardButton(card, inPile) {
  const words = card.territories.map((t) => `${TERRAINS[t[0]]} ${ICONS[t[2]]}`);
  const b = el("button", {
    type: "button", class: "pile-card", "data-pile": card.number, "aria-pressed": String(inPile),
    "aria-label": `Card with ${words.join(", ")}`, title: words.join(" · "),
  });
  for (const t of card.territories) b.append(el("span", { class: `t-${t[0]}`, text: `${t[0]} ${ICONS[t[2]]}` }));
  return b;
}

export function renderPile(ch) {
  const w = state.meta && state.meta.wagons;
  if (!w || !w.cards) return;
  const pile = pileNumbers(ch);
  $("#pile-cards").replaceChildren(...w.cards.map((card) => cardButton(card, pile.includes(card.number))));
  $("#pile-count").textContent = pile.length ? `${pile.length} card${pile.length === 1 ? "" : "s"} in the pile` : "no pile";
}

export function wirePile(current) {
  $("#pile-cards").addEventListener("click", (e) => {
    const b = e.target.closest("[data-pile]");
    if (!b) return;
    const ch = current();
    const n = Number(b.dataset.pile);
    const pile = pileNumbers(ch);
    ch.pile = (pile.includes(n) ? pile.filter((x) => x !== n) : [...pile, n]).sort((a, b2) => a - b2).join(" ");
    renderPile(ch);
    emit("choices-changed");
  });
}
