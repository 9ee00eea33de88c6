// The photo: shrunk in the browser to the size the scanner reads at (upright, as its EXIF orientation
// says), then uploaded with a progress bar. The shrunk copy is also what the page shows under the outlines.
// It is sent as this device (api.js's token): the scan is then the device's alone, and read with its
// taught deck.
import { $ } from "./dom.js";
import { ApiError, deviceToken, tokenRefused, unreachable } from "./api.js";
import { choices, game } from "./gamepage.js";
import { state } from "./state.js";

const DEFAULT_LONG_SIDE = 2016; // the server says its own in /api/v1/meta (photo_long_side)

// A JPEG of `file` with its long side at most `longSide` pixels, drawn upright; null when the browser
// cannot decode it (e.g. HEIC in most browsers): the original is uploaded then, and the server reads it.
export async function shrinkPhoto(file, longSide) {
  let bitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    return null;
  }
  const k = Math.min(1, longSide / Math.max(bitmap.width, bitmap.height));
  const w = Math.max(1, Math.round(bitmap.width * k));
  const h = Math.max(1, Math.round(bitmap.height * k));
  const canvas = document.createElement("canvas");
  canvas.width = w;
  canvas.height = h;
  canvas.getContext("2d").drawImage(bitmap, 0, 0, w, h);
  bitmap.close();
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.9));
  return blob ? { blob, width: w, height: h } : null;
}

function formFor(image, name) {
  const form = new FormData();
  form.append("image", image, name);
  // The scanner tells the game; the choices of the game on the page go with the photo as that game
  // sends them (gamepage.js: choices.scanForm; a game whose photo is scored with its choices once it is
  // on the page sends none).
  game().choices.scanForm(choices(), form);
  return form;
}

// Resolves with {data, photoUrl} (photoUrl: our shrunk copy to show, or null); rejects with an ApiError.
export async function uploadPhoto(file) {
  const box = $("#upload");
  const bar = $("#upload-progress");
  const text = $("#upload-text");
  box.hidden = false;
  bar.removeAttribute("value");
  text.textContent = "Preparing the photo…";
  const longSide = (state.meta && state.meta.photo_long_side) || DEFAULT_LONG_SIDE;
  const small = await shrinkPhoto(file, longSide);
  const image = small ? small.blob : file;
  const limit = state.meta && state.meta.max_upload_bytes;
  if (limit && image.size > limit) {
    box.hidden = true;
    throw new ApiError(413, "too_large", `This photo is ${(image.size / 1e6).toFixed(1)} MB; the server takes up to ${limit / 1e6} MB.`);
  }
  bar.value = 0;
  bar.max = 100;
  text.textContent = `Uploading ${(image.size / 1e6).toFixed(1)} MB…`;
  const name = small ? "photo.jpg" : file.name || "photo";
  try {
    let answer = await send(formFor(image, name), await tokenOrNone(), bar, text);
    if (answer.unknownToken) {
      tokenRefused(answer.token); // the server's database was replaced: a new token, and the photo once more
      answer = await send(formFor(image, name), await tokenOrNone(), bar, text);
    }
    if (answer.error) throw answer.error;
    return { data: answer.data, photoUrl: small ? URL.createObjectURL(small.blob) : null };
  } finally {
    box.hidden = true;
  }
}

// The device token, or null when none can be had now (the server refuses to issue one): the scan is then
// anonymous, read back by its id alone.
async function tokenOrNone() {
  try { return await deviceToken(); } catch (err) { if (err.code === "unreachable") throw err; return null; }
}

// One upload of `form` with `token`: resolves with {data} or {error} (an ApiError), or {unknownToken} when
// the server does not know the token; rejects when the server cannot be reached.
function send(form, token, bar, text) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/v1/scans");
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => { if (e.lengthComputable) bar.value = Math.round((100 * e.loaded) / e.total); };
    xhr.upload.onload = () => {
      bar.removeAttribute("value"); // indeterminate while the server reads the city
      text.textContent = "Reading the photo…";
    };
    xhr.onerror = () => reject(unreachable());
    xhr.onload = () => {
      const data = xhr.response;
      if (xhr.status === 200) { resolve({ data }); return; }
      const e = (data && data.error) || { message: `The server answered ${xhr.status}.` };
      if (xhr.status === 401 && e.code === "device_token_unknown" && token) { resolve({ unknownToken: true, token }); return; }
      resolve({ error: new ApiError(xhr.status, e.code, e.message) });
    };
    xhr.send(form);
  });
}
