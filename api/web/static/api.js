// Talking to the server: JSON calls, their errors, and whether the server can be reached at all.
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

export async function api(path, body) {
  let res;
  try {
    res = await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw unreachable();
  }
  emit("connection", true);
  let data = null;
  try { data = await res.json(); } catch { /* not JSON: reported below */ }
  if (!res.ok) {
    const e = (data && data.error) || { code: "http_" + res.status, message: `The server answered ${res.status}.` };
    throw new ApiError(res.status, e.code, e.message);
  }
  return data;
}
