// sprawlscan page, "Teach your deck": photograph your own 18 cards face up in a grid (one photo, or two for a
// big table); the server finds each card, says which it is and how it lies, and reads this device's later
// scans with what it learned. The cards are shown as a grid for the player to check; "Forget my deck"
// removes it. An ES module of its own, using the saved games' device token (the deck is kept with them).
const TOKEN_KEY = "sprawlscan.device-token";
const $ = (sel) => document.querySelector(sel);

async function token() {
  let t = localStorage.getItem(TOKEN_KEY);
  if (!t) {
    const res = await fetch("/api/v1/devices", { method: "POST" });
    if (!res.ok) throw new Error(`The server answered ${res.status}.`);
    t = (await res.json()).device_token;
    localStorage.setItem(TOKEN_KEY, t);
  }
  return t;
}

async function call(method, body) {
  const res = await fetch("/api/v1/deck", { method, body, headers: { Authorization: `Bearer ${await token()}` } });
  if (res.status === 204) return null;
  let data = null;
  try { data = await res.json(); } catch { /* not JSON: reported below */ }
  if (res.status === 404 && data && data.error && data.error.code === "deck_not_found") return null;
  if (!res.ok) throw new Error((data && data.error && data.error.message) || `The server answered ${res.status}.`);
  return data;
}

function status(text, isError = false) {
  const box = isError ? $("#deck-error") : $("#deck-status");
  $("#deck-error").hidden = true;
  $("#deck-status").hidden = true;
  box.hidden = !text;
  box.textContent = text || "";
}

// The cards as the player laid them: one table per photo, "7 ⟲" for card 7 turned round.
function show(deck) {
  const out = $("#deck-cards");
  out.replaceChildren();
  $("#deck-forget").hidden = !deck;
  $("#deck-none").hidden = Boolean(deck);
  if (!deck) return;
  const photos = [...new Set(deck.cards.map((c) => c.photo))].sort();
  for (const photo of photos) {
    const cards = deck.cards.filter((c) => c.photo === photo);
    const rows = Math.max(...cards.map((c) => c.row)) + 1;
    const cols = Math.max(...cards.map((c) => c.col)) + 1;
    const table = document.createElement("table");
    table.className = "deck-grid";
    if (photos.length > 1) table.createCaption().textContent = `Photo ${photo + 1}`;
    for (let r = 0; r < rows; r++) {
      const tr = table.insertRow();
      for (let c = 0; c < cols; c++) {
        const td = tr.insertCell();
        const card = cards.find((k) => k.row === r && k.col === c);
        td.textContent = card ? `${card.card}${card.rotated ? " ⟲" : ""}` : "·";
        if (card) td.title = `Card ${card.card}${card.rotated ? ", turned round" : ""}`;
      }
    }
    out.append(table);
  }
}

async function teach() {
  const files = [$("#deck-photo").files[0], $("#deck-photo-2").files[0]].filter(Boolean);
  if (!files.length) {
    status("Choose a photo of your cards first.", true);
    return;
  }
  const form = new FormData();
  form.append("image", files[0], files[0].name || "deck.jpg");
  if (files[1]) form.append("image2", files[1], files[1].name || "deck-2.jpg");
  $("#deck-teach").disabled = true;
  status("Finding your cards…");
  try {
    const deck = await call("POST", form);
    show(deck);
    status(`All 18 cards found: check them against your table. Your scans now read with your deck.`);
  } catch (err) {
    status(err.message || String(err), true);
  } finally {
    $("#deck-teach").disabled = false;
  }
}

async function forget() {
  try {
    await call("DELETE");
    show(null);
    status("Your deck is forgotten: scans read as before.");
  } catch (err) {
    status(err.message || String(err), true);
  }
}

function chosen() {
  const names = [$("#deck-photo").files[0], $("#deck-photo-2").files[0]].filter(Boolean).map((f) => f.name);
  $("#deck-files").textContent = names.length ? `Chosen: ${names.join(", ")}` : "";
}

document.addEventListener("DOMContentLoaded", () => {
  $("#deck-photo").addEventListener("change", chosen);
  $("#deck-photo-2").addEventListener("change", chosen);
  $("#deck-teach").addEventListener("click", teach);
  $("#deck-forget").addEventListener("click", forget);
  // Only a device that already has a token can have a deck: no token is made just to look.
  if (localStorage.getItem(TOKEN_KEY)) call("GET").then(show).catch((err) => status(err.message, true));
});
