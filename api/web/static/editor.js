// The cell dialog: tap a cell (in the grid or on the photo) to say what is really there; its fields are the
// game's own (gamepage.js: editor), built again when the game changes.
import { $, emit } from "./dom.js";
import { cellName } from "./city.js";
import { game } from "./gamepage.js";
import { key, state } from "./state.js";

let editing = null; // [row, col]
let builtFor = null; // the game whose fields the dialog holds

function buildFields() {
  if (builtFor === game()) return;
  builtFor = game();
  builtFor.editor.build($("#editor-fields"));
}

export function openEditor(r, c) {
  editing = [r, c];
  buildFields();
  const form = $("#editor-form");
  $("#editor-h").textContent = `Cell ${cellName(r, c)}`;
  game().editor.fill(form, state.rows[r][c]);
  game().editor.sync(form);
  $("#editor").showModal();
}

function closeEditor() {
  if ($("#editor").returnValue !== "ok" || !editing) return;
  const [r, c] = editing;
  state.rows[r][c] = game().editor.read($("#editor-form"));
  state.doubts.delete(key(r, c));
  emit("city-edited", { focus: [r, c] });
}

export function wireEditor() {
  $("#editor-form").addEventListener("change", () => game().editor.sync($("#editor-form")));
  $("#editor").addEventListener("close", closeEditor);
}
