// Paint mode's palette: pick one of the game's brushes (a zone, a road, a territory…), then tap or drag
// over cells in the grid or on the photo.
import { $, el, emit } from "./dom.js";
import { game } from "./gamepage.js";
import { state } from "./state.js";

const brushes = () => game().cells.brushes();

export function renderPalette() {
  const box = $("#palette");
  box.replaceChildren();
  for (const b of brushes()) {
    const btn = el("button", {
      type: "button", class: `brush ${b.cls}`, "data-type": b.type, "data-value": b.value,
      title: b.title, "aria-label": `paint ${b.title}`,
      "aria-pressed": String(Boolean(state.brush && state.brush.type === b.type && state.brush.value === b.value)),
    });
    if (b.icon) btn.append(b.icon.cloneNode(true));
    btn.append(el("span", { text: b.text }));
    box.append(btn);
  }
  const on = state.brush !== null;
  $("#paint-toggle").hidden = !brushes().length; // a game with nothing to paint is typed or edited cell by cell
  $("#paint-toggle").setAttribute("aria-pressed", String(on));
  $("#paint-toggle").textContent = on ? "Done painting" : "Paint";
  $("#paint-box").hidden = !on;
  $("#paint-hint").textContent = on
    ? `Painting ${describe(state.brush)}: tap or drag over cells.`
    : "";
}

const describe = (brush) => game().cells.describeBrush(brush);

export function wirePalette() {
  $("#paint-toggle").addEventListener("click", () => {
    state.brush = state.brush ? null : brushes()[0];
    renderPalette();
    emit("paint-mode");
  });
  $("#palette").addEventListener("click", (e) => {
    const btn = e.target.closest(".brush");
    if (!btn) return;
    state.brush = { type: btn.dataset.type, value: btn.dataset.value };
    renderPalette();
  });
}
