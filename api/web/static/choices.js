// The choices beside the grid (step 3): each game's own section (its scoring cards, goal cards,
// options…), drawn by the game (gamepage.js: choices) into a section of its own; the one of the game on
// the page shows.
import { $, $$, el } from "./dom.js";
import { choices, game, games } from "./gamepage.js";

// One section per game, before the score; each game fills and wires its own once.
export function mountChoices() {
  const before = $("#score-card");
  for (const face of games()) {
    const section = el("section", { class: "card game-choices", "data-game": face.info.name });
    section.hidden = true;
    before.before(section);
    face.choices.mount(section);
    const heading = section.querySelector("h2");
    if (heading && heading.id) section.setAttribute("aria-labelledby", heading.id);
    face.choices.wire(choices, section);
  }
}

export function renderChoices() {
  for (const section of $$(".game-choices")) section.hidden = section.dataset.game !== game().info.name;
  game().choices.render(choices());
}
