// Talking to the server: JSON calls, their errors, whether the server can be reached at all, and the one
// device token the whole page uses (saved games, the taught deck, scans and reading them back).
import { emit } from "./dom.js";

export class ApiError extends Error {
  constructor(status, code, message) { super(message); this.status = status; this.code = code; }
}

export const UNREACHABLE =
  "The server cannot be reached (no connection, or it is down). The page keeps what you entered; " +
  "try again when you are back online.";

export function unreachable() {
  emit("connection", false);
  return new ApiError(0, "unreachable", UNREACHABLE);
}

// ---- the device token ----------------------------------------------------------------------------------
// There are no accounts: the server issues this browser a token once (POST /api/v1/devices) and knows only
// the tokens it issued. A scan sent with it is this device's alone, so the page sends it everywhere.
const TOKEN_KEY = "sprawlscan.device-token";
let asking = null; // the request for a token in flight: callers at the same moment share it

// The token kept in this browser, or null (none asked for yet, or storage is off).
export function keptToken() {
  try { return localStorage.getItem(TOKEN_KEY); } catch { return null; }
}

function forget(token) {
  try { if (localStorage.getItem(TOKEN_KEY) === token) localStorage.removeItem(TOKEN_KEY); } catch { /* not kept */ }
}

// The device token, asked for once when none is kept; rejects with an ApiError (e.g. 429 too_many_devices).
export function deviceToken() {
  const kept = keptToken();
  if (kept) return Promise.resolve(kept);
  if (!asking) asking = askForToken().finally(() => { asking = null; });
  return asking;
}

async function askForToken() {
  const data = await answer(await reach("/api/v1/devices", { method: "POST" }));
  try { localStorage.setItem(TOKEN_KEY, data.device_token); } catch { /* storage off: one token per load */ }
  return data.device_token;
}

// Whether an answer says the token sent was never issued here (the server's database was replaced).
async function unknownToken(res) {
  if (res.status !== 401) return false;
  try { return (await res.clone().json()).error.code === "device_token_unknown"; } catch { return false; }
}

// fetch() as this device: its token in Authorization (`ask`: one is asked for when none is kept; else only a
// kept one is sent). A token the server does not know is forgotten and the request sent once more.
export async function deviceFetch(path, init = {}, { ask = true } = {}) {
  for (let tries = 0; ; tries++) {
    const token = ask ? await deviceToken() : keptToken();
    const headers = { ...(init.headers || {}) };
    if (token) headers.Authorization = `Bearer ${token}`;
    const res = await reach(path, { ...init, headers });
    if (tries > 0 || !token || !(await unknownToken(res))) return res;
    forget(token);
  }
}

// After an upload answered device_token_unknown: forget that token, so the next try asks for another.
export function tokenRefused(token) { forget(token); }

// A picture the server keeps for this device only (a scan's overlay or photo) as a blob: URL an <img> can
// show (an <img> cannot send the token); null when the server no longer has it or cannot be reached.
export async function privateImage(url) {
  if (!url) return null;
  try {
    const res = await deviceFetch(url, {}, { ask: false });
    return res.ok ? URL.createObjectURL(await res.blob()) : null;
  } catch {
    return null;
  }
}

// ---- JSON calls ----------------------------------------------------------------------------------------

async function reach(path, init) {
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw unreachable();
  }
  emit("connection", true);
  return res;
}

async function answer(res) {
  let data = null;
  try { data = await res.json(); } catch { /* not JSON: reported below */ }
  if (!res.ok) {
    const e = (data && data.error) || { code: "http_" + res.status, message: `The server answered ${res.status}.` };
    throw new ApiError(res.status, e.code, e.message);
  }
  return data;
}

// A JSON call, sent with the device token when one is kept (a scan read back, or checked by its id, is the
// device's own); none is asked for just to score.
export async function api(path, body) {
  const init = {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  };
  return answer(await deviceFetch(path, init, { ask: false }));
}

// A call that needs the device (its games, its deck): the token is asked for when none is kept. Resolves with
// the JSON answer, or null for 204 No Content.
export async function deviceCall(method, path, body) {
  const init = { method, headers: {}, body };
  if (typeof body === "string") init.headers["Content-Type"] = "application/json";
  const res = await deviceFetch(path, init);
  return res.status === 204 ? null : answer(res);
}
