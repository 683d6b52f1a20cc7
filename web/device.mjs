// The Phase 10 table device in a web page: the page is the board's case. The device itself
// (MicroPython's WebAssembly port running the board's own firmware, its flash in the
// browser's storage) runs in a worker (web/worker.mjs); the page shows its panel, turns the
// buttons and the keyboard into the button pins, and holds the Web Lock that makes it the
// one device of this browser: a second tab, or the installed app beside a tab, says that
// the device is open elsewhere and offers to use it here (the other then stops, says so,
// and writes nothing more, before this one reads the files).
//
// window.oled, for tests and tools: frames (a count that grows with each frame the
// firmware writes), frame() (the 1024 panel bytes in the SSD1306's page order: byte
// p*128+x holds column x, rows 8p..8p+7, bit 0 the top) and frameTimes.
import { crc32 } from "./flash.mjs";

// Only the tests' build turns this on (tools/build/web_build.py writes it): the published site
// honours no test option (?quota=, ?seed=, ?clock=test, ?nosw) and has no window.device
const HOOKS = false;
const params = HOOKS ? new URLSearchParams(location.search) : new URLSearchParams();
const TEST_CLOCK = params.get("clock") === "test";
const LEGACY = "phase10:";     // where earlier versions kept each file (localStorage)
// The device's storage and its lock are this site's own: another site of the same origin
// (another project's page on the same host) has its own folder
const SITE = location.pathname.replace(/[^/]*$/, "");
const LOCK = "phase10-device:" + SITE;
const DIR = "phase10-device" + SITE.replace(/[^A-Za-z0-9_-]+/g, "_");
const LONG_OK_MS = 650;        // OK held this long is BACK (firmware/edges/buttons.py LONG_MS: 600)
// A mouse click or a quick key lasts a few ms; a button's contact is not read again for
// DEBOUNCE_MS (20) after it changes (firmware/edges/buttons.py): a press is held at least this
// long, so every click is a press, as every finger on a real button is
const MIN_PRESS_MS = 40;
// What Load reads at all: a zip of the device's files is far under this (1 MB of history
// at most); anything larger is refused before it is read
const LOAD_MAX = 4 << 20;

// ---- the panel ----
const gram = new Uint8Array(1024);
let look = { on: false, invert: false, contrast: 255 };
let frames = 0;
const frameTimes = [];      // when each frame was painted (performance.now()): make bench-web
const canvas = document.getElementById("oled");
const ctx = canvas.getContext("2d");
const image = ctx.createImageData(128, 64);
// The panel at the largest whole number of device pixels per panel pixel (sharp) that fits
// its place: held upright, the width, and the height the buttons, the bar and the views'
// least leave; held sideways (the views beside it), half the width and the height over
// the buttons. Nothing else moves when it changes size.
const sideways = window.matchMedia("(orientation: landscape)");
const BEZEL = 2 * (8 + 2);      // the bezel's padding and border, both sides (index.html)
const VIEWS_MIN = 120;          // what the views keep at least, held upright
function fit() {
  const dpr = window.devicePixelRatio || 1;
  const cs = getComputedStyle(document.body);
  const gap = parseFloat(cs.rowGap) || 8;
  const w = window.innerWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  const h = window.innerHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
  const pad = document.getElementById("pad").getBoundingClientRect().height;
  let across, down;
  if (sideways.matches) {
    across = w / 2 - BEZEL;
    down = h - pad - gap - BEZEL;
  } else {
    const top = document.getElementById("top").getBoundingClientRect().height;
    across = w - BEZEL;
    down = h - top - pad - 3 * gap - VIEWS_MIN - BEZEL;
  }
  const k = Math.max(Math.ceil(dpr), Math.min(Math.floor(across * dpr / 128), Math.floor(down * dpr / 64)));
  canvas.style.width = (128 * k) / dpr + "px";
  canvas.style.height = (64 * k) / dpr + "px";
}
window.addEventListener("resize", fit);
sideways.addEventListener("change", fit);
function paint() {
  frameTimes.push(performance.now());
  if (frameTimes.length > 512) frameTimes.splice(0, 256);
  // the OLED's look: bright blue-white light on black, as a panel's pixels are at the
  // default contrast (128: 92% of full); the contrast dims it (1, a dimmed screen: 35%), dark when off
  const level = look.on ? 1 - 0.65 * Math.pow(1 - look.contrast / 255, 3) : 0;
  const r = Math.round(236 * level), g = Math.round(248 * level), b = Math.round(255 * level);
  const px = image.data;
  for (let y = 0; y < 64; y++) {
    const row = (y >> 3) * 128, bit = 1 << (y & 7);
    for (let x = 0; x < 128; x++) {
      const lit = ((gram[row + x] & bit) !== 0) !== look.invert;
      const o = (y * 128 + x) * 4;
      px[o] = lit ? r : 0; px[o + 1] = lit ? g : 0; px[o + 2] = lit ? b : 0; px[o + 3] = 255;
    }
  }
  ctx.putImageData(image, 0, 0);
}
window.oled = {
  frameTimes,
  get frames() { return frames; },
  frame() { return Uint8Array.from(gram); },
};

// ---- the device, in its worker ----
let worker = null;
let running = false;
const saidAll = [];          // what the device has said on its notes since it started         // the worker has the device up
let asked = 0;
const waiting = new Map();   // request id -> resolve
function ask(t, extra, transfer) {
  // a request to the device: its answer (null when it is not running)
  if (!worker) return Promise.resolve(null);
  const id = ++asked;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    worker.postMessage(Object.assign({ t, id }, extra || {}), transfer || []);
  });
}
function fromWorker(e) {
  const m = e.data;
  if (m.t === "frame") {
    gram.set(m.gram);
    look = m;
    frames++;
    paint();
  } else if (m.t === "said") {
    // what the device says on its notes, for a screen reader (the panel is a picture)
    if (m.from === 0) saidAll.length = 0;
    saidAll.push(...m.texts);
    spoken.textContent = m.texts.join(" ");
  } else if (m.t === "pressed") {
    pressed = m.bits;         // the bits of a press the device times (Escape, Help)
  } else if (m.t === "layout") {
    document.body.classList.toggle("three", m.three);
    fit();
  } else if (m.t === "table") {
    showTable(JSON.parse(m.state));
  } else if (m.t === "reply") {
    const r = waiting.get(m.id);
    waiting.delete(m.id);
    if (r) r(m.value);
  } else if (m.t === "ready") {
    running = true;
    window.oled.firstFrameMs = performance.now() - t0;
    window.oled.startMs = m.ms;
    window.oled.stages = Object.assign({ page: pageLoaded }, m.stages);
    dropLegacy(m.migrated);
    if (m.note) say(m.note);
    document.body.classList.add("ready");
    // the views once the first frame is up (their page, fetched meanwhile, waits for it)
    if (!tableFrame.isConnected) {
      tableFrame.src = "table.html";
      document.getElementById("views").prepend(tableFrame);
    }
  } else if (m.t === "busy") {
    // the other tab's worker did not let the files go: it must be closed by hand
    stopWorker();
    elsewhere("The device's files are still held by another tab or window of this browser. Close it, then reload this page.");
  } else if (m.t === "fatal") {
    running = false;
    say("The device stopped: " + m.message + ". Reload the page; saved games are kept.");
  }
}
function buttons(bits) {
  if (worker && running) worker.postMessage({ t: "buttons", bits });
}

function legacyFiles() {
  // the files earlier versions kept in localStorage ([[name, bytes]], every name: the worker
  // takes the device's and says the others); none where the browser gives the page none
  const files = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (!k || !k.startsWith(LEGACY)) continue;
      const name = k.slice(LEGACY.length);
      const s = localStorage.getItem(k) || "";
      const b = new Uint8Array(s.length);
      for (let j = 0; j < s.length; j++) b[j] = s.charCodeAt(j);
      files.push([name, b]);
    }
  } catch (e) {
    return [];
  }
  return files;
}
function dropLegacy(names) {
  // (once they are in the device's storage)
  try {
    for (const n of names || []) localStorage.removeItem(LEGACY + n);
  } catch (e) { /* no localStorage: nothing there */ }
}

let t0 = performance.now();
const pageLoaded = Math.round(t0 * 10) / 10;    // (make bench-web: where a start's time goes)
function startWorker() {
  t0 = performance.now();
  // the one web/index.html started as the page began to load, else a new one
  const e = window.early;
  window.early = null;
  worker = e ? e.worker : new Worker("worker.mjs", { type: "module" });
  worker.onmessage = fromWorker;
  if (e) for (const m of e.said) fromWorker(m);
  if (e && e.failed) say("The device stopped: " + e.failed + ". Reload the page; saved games are kept.");
  worker.onerror = (e) => { running = false; say("The device stopped: " + (e.message || "its worker failed") + ". Reload the page; saved games are kept."); };
  worker.postMessage({
    t: "start", dir: DIR, legacy: legacyFiles(), origin: performance.timeOrigin,
    testClock: TEST_CLOCK, seed: Number(params.get("seed")) || 0, quota: Number(params.get("quota")) || 0,
  });
}
async function stopWorker() {
  // the device stopped here: its loop and its storage closed before this returns
  running = false;
  const w = worker;
  if (!w) return;
  const done = ask("stop");
  await Promise.race([done, new Promise((r) => setTimeout(r, 2000))]);
  w.terminate();
  worker = null;
  for (const r of waiting.values()) r(null);
  waiting.clear();
}

// ---- one device a browser: the Web Lock ----
function lost() {
  // taken over by another page: this one stops, and says so
  stopWorker().then(() => elsewhere("The device is now open in another tab or window of this browser. Nothing more is saved here."));
}
function takeLock(steal) {
  // true once this page holds the device's lock; false when another page does. The first
  // time, the answer to web/index.html's request, made as the page began to load
  const early = window.earlyLock;
  window.earlyLock = null;
  if (early && !steal) {
    early.lost = lost;
    if (early.wasLost) lost();
    return early.held;
  }
  if (!navigator.locks) return Promise.resolve(true);
  return new Promise((resolve) => {
    navigator.locks.request(LOCK, steal ? { steal: true } : { ifAvailable: true }, (lock) => {
      if (!lock) { resolve(false); return undefined; }
      resolve(true);
      return new Promise(() => {});     // held as long as the page is open
    }).catch((e) => {
      if (e && e.name === "AbortError") lost();
      else resolve(true);    // no lock to be had (site data blocked: then no storage either, nothing to share)
    });
  });
}
const away = document.getElementById("elsewhere");
function elsewhere(text) {
  document.getElementById("elsewhere-text").textContent = text;
  away.hidden = false;
  document.body.classList.add("away");
}
async function useHere() {
  away.hidden = true;
  document.body.classList.remove("away");
  document.body.classList.remove("ready");
  if (await takeLock(true)) startWorker();
}
document.getElementById("use-here").addEventListener("click", () => { useHere().catch(fatal); });

// ---- the buttons ----
const BITS = { up: 1, down: 2, left: 4, right: 8, ok: 16 };
const KEYS = { ArrowUp: 1, ArrowDown: 2, ArrowLeft: 4, ArrowRight: 8, Enter: 16, " ": 16 };
let held = 0;
let pressed = 0;
const pointers = new Map();   // pointer id -> the bit it holds
const keysDown = new Map();   // key -> bit
const since = new Map();      // pointer id or key -> when it was pressed

function letGo(map, id) {
  // released, but not before MIN_PRESS_MS after its press
  if (!map.has(id)) return;
  const left = MIN_PRESS_MS - (performance.now() - (since.get(id) || 0));
  const go = () => { if (map.delete(id)) recompute(); };
  if (left > 0 && !TEST_CLOCK) setTimeout(go, left); else go();
}
function recompute() {
  let b = 0;
  for (const v of pointers.values()) b |= v;
  for (const v of keysDown.values()) b |= v;
  if (b === held) return;
  if (b & ~held) unsay();     // a press: the note has been seen
  held = b;
  buttons(held);
}
// The presses the page makes itself (Escape's long OK, Help's chord): [bits, ms] stages.
// On the browser's clock the device times them, each stage from the first step of the app
// that saw it (web/worker.mjs), so that a page or a worker running late (a slow phone, a
// busy machine) still gives the app the whole press, as a finger would; on the tests'
// clock, time passes only through advance(), and the page's timers set the stages.
function press(stages) {
  unsay();
  if (!TEST_CLOCK) {
    if (worker && running) worker.postMessage({ t: "press", stages });
    return;
  }
  let t = 0;
  stages.forEach(([bits, ms], i) => {
    setTimeout(() => { keysDown.set("press", bits); recompute(); }, t);
    t += ms;
    if (i === stages.length - 1) setTimeout(() => { keysDown.delete("press"); recompute(); }, t);
  });
}
function longOk() {
  // Escape: OK held past the long press (BACK), as the simulator's Escape does
  press([[16, LONG_OK_MS]]);
}
function helpChord() {
  // Help: OK held and UP pressed
  press([[16, 60], [17, 120]]);
}
function wireButtons() {
  for (const el of document.querySelectorAll("[data-button]")) {
    const bit = BITS[el.dataset.button];
    const up = (e) => { letGo(pointers, e.pointerId); el.classList.remove("down"); };
    el.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      // (a held button keeps its pointer when the finger slides off it)
      try { el.setPointerCapture(e.pointerId); } catch (err) { /* a pointer the browser does not track */ }
      pointers.set(e.pointerId, bit);
      since.set(e.pointerId, performance.now());
      el.classList.add("down");
      recompute();
    });
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", up);
    el.addEventListener("lostpointercapture", up);
    el.addEventListener("contextmenu", (e) => e.preventDefault());
  }
  document.getElementById("help").addEventListener("click", helpChord);
  window.addEventListener("keydown", (e) => {
    if (e.target.closest && e.target.closest("dialog, input")) return;
    if (e.repeat) { if (KEYS[e.key] !== undefined) e.preventDefault(); return; }
    if (e.key === "Escape") { e.preventDefault(); longOk(); return; }
    if (e.key === "?" || e.key === "h") { e.preventDefault(); helpChord(); return; }
    const bit = KEYS[e.key];
    if (bit === undefined) return;
    e.preventDefault();
    keysDown.set(e.key, bit);
    since.set(e.key, performance.now());
    recompute();
  });
  window.addEventListener("keyup", (e) => letGo(keysDown, e.key));
  window.addEventListener("blur", () => { keysDown.clear(); pointers.clear(); recompute(); });
}

// ---- the table's views: the phones' own page (table.html), fed the state the device makes
// after each commit (web/webtable.py), as the phones' server sends it ----
const tableFrame = document.createElement("iframe");     // (made once the device is up)
tableFrame.id = "table";
tableFrame.title = "the table: standings, score sheet, board";
let tableState = null, tableOpen = false;
function showTable(state) {
  if (state) tableState = state;
  if (tableOpen && tableState) tableFrame.contentWindow.postMessage(tableState, location.origin);
}
window.addEventListener("message", (e) => {
  // the page in the frame asks for the state once it is ready to show it
  if (e.source === tableFrame.contentWindow && e.origin === location.origin && e.data === "table?") {
    tableOpen = true;
    showTable(null);
  }
});

// ---- messages: a note over the views, gone after a while or at the next key ----
const note = document.getElementById("note");
const spoken = document.getElementById("spoken");
let noteTimer = null;
function say(text) {
  note.textContent = text;
  note.hidden = !text;
  clearTimeout(noteTimer);
  if (text) noteTimer = setTimeout(unsay, Math.min(15000, 5000 + 60 * text.length));
}
function unsay() {
  clearTimeout(noteTimer);
  note.hidden = true;
}
function fatal(e) {
  console.error(e);
  say("The device stopped: " + (e && e.message ? e.message : e) + ". Reload the page; saved games are kept.");
}

// ---- Download files: a zip (stored) of the device's files, dated as they were written ----
function dosTime(ms) {
  const d = new Date(ms);
  const time = (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1);
  const date = ((Math.max(1980, d.getFullYear()) - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate();
  return [time, date];
}
function zip(folder, entries) {
  // entries: {name: {data, mtime}}
  const enc = new TextEncoder();
  const parts = [], central = [];
  let offset = 0;
  const names = Object.keys(entries).sort();
  for (const name of names) {
    const { data, mtime } = entries[name];
    const nm = enc.encode(folder + "/" + name), crc = crc32(data);
    const [time, date] = dosTime(mtime);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true); local.setUint16(4, 20, true); local.setUint16(6, 0x800, true);
    local.setUint16(10, time, true); local.setUint16(12, date, true);
    local.setUint32(14, crc, true); local.setUint32(18, data.length, true); local.setUint32(22, data.length, true);
    local.setUint16(26, nm.length, true);
    parts.push(new Uint8Array(local.buffer), nm, data);
    const cen = new DataView(new ArrayBuffer(46));
    cen.setUint32(0, 0x02014b50, true); cen.setUint16(4, 20, true); cen.setUint16(6, 20, true); cen.setUint16(8, 0x800, true);
    cen.setUint16(12, time, true); cen.setUint16(14, date, true);
    cen.setUint32(16, crc, true); cen.setUint32(20, data.length, true); cen.setUint32(24, data.length, true);
    cen.setUint16(28, nm.length, true); cen.setUint32(42, offset, true);
    central.push(new Uint8Array(cen.buffer), nm);
    offset += 30 + nm.length + data.length;
  }
  const size = central.reduce((n, p) => n + p.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true); end.setUint16(8, names.length, true);
  end.setUint16(10, names.length, true); end.setUint32(12, size, true); end.setUint32(16, offset, true);
  return new Blob([...parts, ...central, new Uint8Array(end.buffer)], { type: "application/zip" });
}
async function download() {
  const files = await ask("files");
  if (!files) { say("The device is not running here: nothing to download."); return; }
  // (the leftovers of a save cut short are not the device's files to keep)
  for (const n of Object.keys(files)) if (n.endsWith(".tmp")) delete files[n];
  if (!Object.keys(files).length) { say("Nothing to download yet: the device has no saved files (a game, the players, the history)."); return; }
  const a = document.createElement("a");
  a.href = URL.createObjectURL(zip("phase10", files));
  a.download = "phase10-files.zip";
  document.body.appendChild(a);
  a.click();
  a.remove();
}

// ---- Load files: the files, or the zip Download makes; checked whole, switched in one step ----
async function unzip(buf) {
  // [[name, bytes]] of a zip's files (stored or deflated), their folders dropped; throws
  // with the reason when it is not a zip this page reads
  const v = new DataView(buf), u8 = new Uint8Array(buf);
  let end = -1;
  for (let i = buf.byteLength - 22; i >= Math.max(0, buf.byteLength - 22 - 65535); i--) {
    if (v.getUint32(i, true) === 0x06054b50) { end = i; break; }
  }
  if (end < 0) throw new Error("it is not a zip file");
  const count = v.getUint16(end + 10, true);
  let at = v.getUint32(end + 16, true);
  const out = [];
  const dec = new TextDecoder();
  for (let i = 0; i < count; i++) {
    if (at + 46 > buf.byteLength || v.getUint32(at, true) !== 0x02014b50) throw new Error("its list of files is damaged");
    const method = v.getUint16(at + 10, true), csize = v.getUint32(at + 20, true), usize = v.getUint32(at + 24, true);
    const nlen = v.getUint16(at + 28, true), xlen = v.getUint16(at + 30, true), clen = v.getUint16(at + 32, true);
    const local = v.getUint32(at + 42, true), crc = v.getUint32(at + 16, true);
    const name = dec.decode(u8.subarray(at + 46, at + 46 + nlen));
    at += 46 + nlen + xlen + clen;
    if (name.endsWith("/")) continue;
    const base = name.slice(name.lastIndexOf("/") + 1);
    if (base.startsWith(".") || name.startsWith("__MACOSX/")) continue;   // (a Mac's zip adds these)
    if (usize > LOAD_MAX) throw new Error(base + " is larger than the device reads");
    if (local + 30 > buf.byteLength || v.getUint32(local, true) !== 0x04034b50) throw new Error("it is damaged at " + base);
    const from = local + 30 + v.getUint16(local + 26, true) + v.getUint16(local + 28, true);
    const raw = u8.subarray(from, from + csize);
    let data;
    if (method === 0) data = raw.slice();
    else if (method === 8) data = new Uint8Array(await new Response(new Blob([raw]).stream().pipeThrough(new DecompressionStream("deflate-raw"))).arrayBuffer());
    else throw new Error(base + " is packed in a way this page does not read");
    if (data.length !== usize || crc32(data) !== crc) throw new Error(base + " is damaged in it");
    out.push([base, data]);
  }
  return out;
}
const confirmBox = document.getElementById("confirm");
function confirmReplace(what) {
  // the player's word before a running game is replaced
  document.getElementById("confirm-text").textContent = "Replace " + what + " with the loaded game?";
  return new Promise((resolve) => {
    confirmBox.onclose = () => resolve(confirmBox.returnValue === "replace");
    confirmBox.showModal();
  });
}
async function loadBack(list) {
  const chosen = [];
  for (const file of list) {
    if (file.size > LOAD_MAX) { say("Nothing loaded: " + file.name + " is larger than the device reads (" + file.size + " bytes)."); return; }
    const buf = await file.arrayBuffer();
    const u8 = new Uint8Array(buf);
    if (file.name.toLowerCase().endsWith(".zip") || (u8[0] === 0x50 && u8[1] === 0x4b)) {
      try {
        chosen.push(...await unzip(buf));
      } catch (e) {
        say("Nothing loaded: " + file.name + ": " + e.message + "."); return;
      }
    } else {
      chosen.push([file.name, u8]);
    }
  }
  if (!chosen.length) { say("Nothing loaded: no file chosen."); return; }
  const files = chosen.map(([n, b]) => [n, b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)]);
  let r = await ask("load", { files });
  if (r && r.ask) {
    if (!await confirmReplace(r.ask)) { say("Nothing loaded: the running game goes on."); return; }
    r = await ask("load", { files: chosen.map(([n, b]) => [n, b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)]), replace: true });
  }
  say(r ? r.message : "Nothing loaded: the device is not running here.");
}

if (HOOKS) {
  window.device = {
    loadBack,
    restart: (files, seed) => ask("restart", { files, seed }),
    advance: (ms) => ask("advance", { ms }),
    files: async () => {
      const f = await ask("files");
      const out = {};
      const dec = new TextDecoder();
      for (const [n, v] of Object.entries(f || {})) out[n] = dec.decode(v.data);
      return out;
    },
    mtimes: async () => Object.fromEntries(Object.entries(await ask("files") || {}).map(([n, v]) => [n, v.mtime])),
    storage: (set) => ask("hook", set || {}),
    said: () => saidAll.slice(),
    note: () => (note.hidden ? "" : note.textContent),
    say,
    download,
    held: () => held | pressed,
    table: () => tableState,
  };
}

document.getElementById("download").addEventListener("click", () => { download().catch(fatal); });
document.getElementById("load").addEventListener("change", (e) => {
  loadBack([...e.target.files]).catch(fatal).finally(() => { e.target.value = ""; });
});
// The device first: its lock, then its worker told to start, and only then the page's own
// set-up (its layout, on this thread, while the worker reads the storage and starts)
takeLock(false).then((mine) => {
  if (mine) startWorker();
  else {
    // (the worker web/index.html started is not needed here: another page has the device)
    if (window.early) window.early.worker.terminate();
    window.early = null;
    elsewhere("The device is open in another tab or window of this browser.");
  }
  fit();
}).catch(fatal);
wireButtons();
if ("serviceWorker" in navigator && !params.has("nosw")) {
  navigator.serviceWorker.register("sw.js").catch((e) => console.warn("offline copy not installed:", e));
}
// the browser asked to keep the device's storage through a clean-up (it may say no: then
// only the player's clearing of the site's data, or the browser under pressure, removes it)
if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
