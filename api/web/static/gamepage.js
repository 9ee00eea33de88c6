// The games the page offers, each through one face. /api/v1/meta lists the games the server registered
// (name, title, the word for its grid, its options, and "page": the URL of the game's own page module,
// served from the game's package under /static/games/<name>/). A game's module default-exports the parts
// it draws itself; every part it leaves out is the plain default below, so a game with no module of its
// own is offered too: its cells typed and shown as they are, each of its options a field.
//
// The parts: `stylesheet` (the URL of the game's own styles: its cells' colours); `words` (the page's headings and hints for this game: lead, heading, typeIt, score, empty,
// textHint and tallyHint as HTML, and optionally photoHint, untaught, deckNote); `example` (a grid to start
// the text box with); `interstate` (whether the grid may have a line between rows); `firstBrush` (paint
// mode's first brush); `startsTyped` (the text box opens on an empty grid); `cells` (describe, ifItIs,
// readAs, cellClass, drawCell, overlayLines, overlayLabel, brushes, describeBrush, paint); `editor` (the
// cell dialog's fields: build, fill, sync, read); `choices` (what the player picks beside the grid: fresh,
// restore, fromSaved, owns, fromHeaders, body, scanForm, fromScan, rescoreAfterScan, dropPhotoCards,
// provenance, mount, render, forget, wire); `verdict(breakdown)`; `playedWith(cards)` and `cardName(card)`
// for the saved games; `deckChoices()`, `deckExtras` and `taughtMessage(deck)` for a taught deck.
import { el, emit } from "./dom.js";
import { cityText, state } from "./state.js";

const loaded = new Map(); // game name -> its face on the page

const capital = (word) => word.charAt(0).toUpperCase() + word.slice(1);

function plainWords(info) {
  const grid = info.grid_word;
  return {
    lead: `Photograph or type in your finished ${grid}, fix anything, get the score.`,
    heading: `2 · ${capital(grid)}`, typeIt: `Type or paste a ${grid}`, score: `Score this ${grid}`,
    empty: `No ${grid} yet: scan a photo or type one below.`,
    textHint: `One line per row, cells separated by spaces, in ${info.title}'s own text format.`,
    tallyHint: "Write what you counted, one line each, and the total.",
  };
}

const plainCells = {
  describe: (token) => (token === "." ? "empty" : token),
  ifItIs: (label) => (label === "." ? "If it is empty" : `If it is ${label}`),
  readAs: (label) => (label === "." ? "empty" : label),
  cellClass: (token) => (token === "." ? "z-empty" : "z-plain"),
  drawCell: (btn, token) => btn.append(el("span", { class: "tok", text: token === "." ? "" : token })),
  overlayLines: () => [],
  overlayLabel: (token) => token,
  brushes: () => [],
  describeBrush: () => "",
  paint: (token) => token,
};

const plainEditor = {
  build(box) {
    box.replaceChildren(el("label", { class: "inline", text: "What is here " },
      el("input", { type: "text", name: "token", autocomplete: "off", spellcheck: "false" })));
  },
  fill(form, token) { form.elements.token.value = token; },
  sync() {},
  read: (form) => form.elements.token.value.trim() || ".",
};

// Each of the game's options as a field; several words are typed with spaces between them.
function plainChoices(info) {
  const options = info.options || [];
  const valueOf = (opt, text) => {
    const words = text.split(/[\s,]+/).filter(Boolean);
    const typed = opt.kind === "numbers" ? words.map(Number) : words;
    return opt.several ? typed : typed.join(" ");
  };
  const shown = (v) => (Array.isArray(v) ? v.join(" ") : v === undefined ? "" : String(v));
  let section = null; // where mount() put the fields
  return {
    fresh: () => ({}),
    restore: (saved) => ({ ...(saved || {}) }),
    fromSaved: (request) => ({ ...(request.options || {}) }),
    owns: (key) => options.some((o) => o.key === key),
    fromHeaders(ch, headers) { for (const [key, value] of headers) ch[key] = valueOf(options.find((o) => o.key === key), value); },
    body: (ch) => ({ options: { ...ch } }),
    scanForm(ch, form) { for (const [key, v] of Object.entries(ch)) form.append(key, shown(v)); },
    fromScan() {},
    rescoreAfterScan: () => false,
    dropPhotoCards() {},
    provenance: () => null,
    mount(box) {
      section = box;
      box.append(el("h2", { id: `choices-h-${info.name}`, text: "3 · Choices" }));
      for (const opt of options) {
        const input = opt.choices ? el("select") : el("input", { type: "text", autocomplete: "off" });
        for (const choice of opt.choices ? ["", ...opt.choices] : []) input.append(new Option(choice || "—", choice));
        input.dataset.option = opt.key;
        box.append(el("label", { class: "inline", text: `${opt.key} ` }, input, el("small", { text: ` ${opt.help}` })));
      }
    },
    render(ch) {
      for (const input of section.querySelectorAll("[data-option]")) input.value = shown(ch[input.dataset.option]);
    },
    forget() {},
    wire(current, box) {
      box.addEventListener("change", (e) => {
        const input = e.target.closest("[data-option]");
        if (!input) return;
        const opt = options.find((o) => o.key === input.dataset.option);
        if (input.value.trim() === "") delete current()[opt.key];
        else current()[opt.key] = valueOf(opt, input.value);
        emit("choices-changed");
      });
    },
  };
}

// A game's choices as kept in a draft: the fields of `fresh` that `saved` holds, the others as fresh.
export function restoredFields(fresh, saved) {
  for (const f of Object.keys(fresh)) if (saved && saved[f] !== undefined) fresh[f] = saved[f];
  return fresh;
}

function plainGame(info) {
  return {
    info,
    words: plainWords(info),
    example: "",
    interstate: false,
    firstBrush: null,
    startsTyped: true,
    cells: plainCells,
    editor: plainEditor,
    choices: plainChoices(info),
    verdict: (bd) => ({ text: info.title, won: bd.won === undefined ? null : bd.won }),
    playedWith: (cards) => `cards ${cards}`,
    cardName: () => "",
    deckChoices: () => [],
    deckExtras: {},
    taughtMessage: () => `All 18 ${info.title} cards found: check them against your table.`,
  };
}

// The page shows once the game's styles are in: its cells are never drawn unstyled.
function linkStylesheet(href) {
  const link = el("link", { rel: "stylesheet", href });
  const loaded = new Promise((resolve) => { link.onload = resolve; link.onerror = resolve; });
  document.head.append(link);
  return loaded;
}

// Every game of `meta` with its page module loaded (a module that cannot be loaded leaves its game plain).
export async function loadGames(meta) {
  loaded.clear();
  const faces = await Promise.all((meta.games || []).map(async (info) => {
    const plain = plainGame(info);
    if (!info.page) return plain;
    try {
      const own = (await import(info.page)).default;
      if (own.stylesheet) await linkStylesheet(own.stylesheet);
      return { ...plain, ...own, info, words: { ...plain.words, ...own.words }, cells: { ...plain.cells, ...own.cells } };
    } catch {
      return plain;
    }
  }));
  for (const face of faces) loaded.set(face.info.name, face);
}

export const games = () => [...loaded.values()];

// The game named, or the first one (a name from an old draft or a saved game no longer offered).
export const gameOf = (name) => loaded.get(name) || games()[0];

export const game = () => gameOf(state.game);

export const knownGame = (name) => (loaded.has(name) ? name : games()[0].info.name);

// The current game's choices: each game keeps its own while the player switches between them.
export function choices() {
  const name = game().info.name;
  if (!state.choicesOf[name]) state.choicesOf[name] = game().choices.fresh();
  return state.choicesOf[name];
}

// The request body for /api/v1/score and /api/v1/check.
export function scoreBody() {
  return { game: state.game, city: cityText(), ...game().choices.body(choices()) };
}
