// The live camera: the phone's back camera on the page, each preview frame checked by the service
// (POST /api/v1/frames), the city's outline drawn over the picture with a short hint while the shot would not
// be read, "Ready" when it would. Once the frame has been ready and steady for a moment the page takes the
// full-resolution photo itself and scans it as an uploaded file; the button takes it at any time. Without a
// camera (or when the player declines it) the file picker is the way in.
import { $ } from "./dom.js";
import { state } from "./state.js";

const FRAMES = "/api/v1/frames";
const FRAME_SIDE = 960; // a preview frame's long side, as sent
const STEADY_FRAMES = 3; // ready frames in a row ...
const STEADY_MOVE = 0.04; // ... whose outline corners move less than this share of the frame ...
const STEADY_MS = 1000; // ... for this long: then the photo is taken
const PAUSE_MS = 120; // between two frames (one is in flight at most)
const BUSY_MS = 800; // after the service said it is busy

let stream = null;
let running = false;
let steady = { count: 0, since: 0, outline: null };
let onPhoto = () => {};

function say(code, text) {
  const hint = $("#camera-hint");
  hint.dataset.code = code;
  hint.textContent = text;
  hint.classList.toggle("ready", code === "ready");
}

function drawOutline(outline) {
  const poly = $("#camera-poly");
  poly.setAttribute("points", outline.map(([x, y]) => `${x},${y}`).join(" "));
  $("#camera-outline").classList.toggle("found", outline.length === 4);
}

// The video's current picture, its long side at most `side` px (the full track's size with no limit).
function grab(video, side) {
  const w = video.videoWidth, h = video.videoHeight;
  const f = side ? Math.min(1, side / Math.max(w, h)) : 1;
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(w * f);
  canvas.height = Math.round(h * f);
  canvas.getContext("2d").drawImage(video, 0, 0, canvas.width, canvas.height);
  return canvas;
}

const toBlob = (canvas, quality) => new Promise((ok) => canvas.toBlob(ok, "image/jpeg", quality));
const wait = (ms) => new Promise((ok) => setTimeout(ok, ms));

async function checkFrame(video) {
  const blob = await toBlob(grab(video, FRAME_SIDE), 0.8);
  const form = new FormData();
  form.append("image", blob, "frame.jpg");
  form.append("game", state.game);
  const res = await fetch(FRAMES, { method: "POST", body: form });
  if (!res.ok) return { busy: res.status === 503 || res.status === 429 };
  return res.json();
}

// Whether `outline` is within STEADY_MOVE of the last one, corner by corner.
function still(outline) {
  const last = steady.outline;
  return !!last && outline.every(([x, y], i) => Math.hypot(x - last[i][0], y - last[i][1]) < STEADY_MOVE);
}

function track(answer) {
  if (!answer.ready) {
    steady = { count: 0, since: 0, outline: null };
    return false;
  }
  const now = performance.now();
  steady = still(answer.outline)
    ? { count: steady.count + 1, since: steady.since, outline: answer.outline }
    : { count: 1, since: now, outline: answer.outline };
  return steady.count >= STEADY_FRAMES && now - steady.since >= STEADY_MS;
}

async function loop(video) {
  while (running) {
    let answer;
    try {
      answer = video.videoWidth ? await checkFrame(video) : { busy: true };
    } catch {
      answer = { busy: true }; // the server cannot be reached: keep the camera, try again
    }
    if (!running) return;
    if (answer.busy) {
      await wait(BUSY_MS);
      continue;
    }
    drawOutline(answer.outline || []);
    const first = (answer.hints || [])[0] || { code: "find_cards", text: "Point the camera at the cards" };
    say(first.code, first.code === "ready" ? "Ready: hold still, the photo is taken by itself" : first.text);
    $("#camera").dataset.frames = String(Number($("#camera").dataset.frames || 0) + 1);
    if (track(answer)) {
      await takePhoto(true);
      return;
    }
    await wait(PAUSE_MS);
  }
}

// The full-resolution photo: the camera's own still where the browser has one, else the video's picture
// at the track's full size.
async function fullPhoto(video) {
  const track = stream && stream.getVideoTracks()[0];
  if (track && "ImageCapture" in window) {
    try {
      return await new window.ImageCapture(track).takePhoto();
    } catch { /* no still from this camera: the video's picture below */ }
  }
  return toBlob(grab(video, 0), 0.92);
}

async function takePhoto(auto) {
  if (!stream) return;
  running = false;
  say("taking", auto ? "Steady and ready: taking the photo…" : "Taking the photo…");
  const blob = await fullPhoto($("#camera-video"));
  $("#camera").dataset.taken = auto ? "auto" : "button";
  closeCamera();
  onPhoto(new File([blob], "camera.jpg", { type: blob.type || "image/jpeg" }));
}

function closeCamera() {
  running = false;
  if (stream) stream.getTracks().forEach((t) => t.stop());
  stream = null;
  $("#camera-video").srcObject = null;
  $("#camera").hidden = true;
  $("#camera-open").hidden = false;
}

function noCamera(why) {
  const note = $("#camera-none");
  note.textContent = `${why} Take the photo with the button below instead.`;
  note.hidden = false;
  $("#camera").hidden = true;
  $("#camera-open").hidden = false;
}

async function openCamera() {
  $("#camera-none").hidden = true;
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    noCamera("This browser offers the page no camera.");
    return;
  }
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      video: { facingMode: "environment", width: { ideal: 4096 }, height: { ideal: 3072 } },
      audio: false,
    });
  } catch (err) {
    stream = null;
    const declined = err && err.name === "NotAllowedError";
    noCamera(declined ? "The camera was not allowed." : "No camera could be opened.");
    return;
  }
  const video = $("#camera-video");
  video.srcObject = stream;
  $("#camera").hidden = false;
  $("#camera-open").hidden = true;
  say("starting", "Starting the camera…");
  drawOutline([]);
  await video.play().catch(() => {});
  steady = { count: 0, since: 0, outline: null };
  running = true;
  loop(video);
}

// `photoTaken(file)` scans the photo the camera took, as an uploaded file is scanned.
export function wireCamera(photoTaken) {
  onPhoto = photoTaken;
  $("#camera-open").addEventListener("click", openCamera);
  $("#camera-take").addEventListener("click", () => takePhoto(false));
  $("#camera-close").addEventListener("click", closeCamera);
}
