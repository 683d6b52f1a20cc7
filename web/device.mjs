// The Phase 10 table device in a web page: MicroPython's WebAssembly port runs the board's
// own firmware (engine_mpy/ and firmware/, compiled as `make web` packs them into
// device.bin), on the page's edges: the canvas is the SSD1306 (its bus writes decoded here),
// the buttons and the keyboard are the button pins, and the browser's localStorage is the
// flash (every file the device writes is kept there as it is committed).
//
// window.oled, for tests and tools: frames (a count that grows with each frame the
// firmware writes) and frame() (the 1024 panel bytes in the SSD1306's page order: byte
// p*128+x holds column x, rows 8p..8p+7, bit 0 the top).
import { loadMicroPython } from "./micropython.mjs";
import { SSD1306 } from "./ssd1306.mjs";

const DATA = "/data";          // the device's files (its flash), as firmware/main.py's root
const KEY = "phase10:";        // localStorage key prefix: KEY + file name
// What the device's files may take in localStorage, in bytes: browsers give an origin about
// 5 MB (Chromium counts two bytes a character, so 2.5 million of the one-byte characters
// kept here). Past this the device is told its flash is full (ENOSPC), as littlefs would,
// and makes room or says so; nothing already saved is touched. A test lowers it (?quota=).
const params = new URLSearchParams(location.search);
let QUOTA = Number(params.get("quota")) || 2_000_000;
const ENOSPC = 28;
const LONG_OK_MS = 650;        // OK held this long is BACK (firmware/edges/buttons.py LONG_MS: 600)
// A mouse click or a quick key lasts a few ms; a button's contact is not read again for
// DEBOUNCE_MS (20) after it changes (firmware/edges/buttons.py): a press is held at least this
// long, so every click is a press, as every finger on a real button is
const MIN_PRESS_MS = 40;
const POLL_MS = 10;            // the app's poll while a button is in play
const IDLE_MS = 100;           // ... and when nothing is (the page wakes at a change anyway)
const ACTIVE_MS = 1500;        // after a button change, polled at POLL_MS this long
// ?clock=test: time passes only when a test says so (device.advance), as in the simulator's
// scripts; the page's own loop does not run
const TEST_CLOCK = params.get("clock") === "test";

// ---- the display: the SSD1306's commands and RAM, as a board's panel holds them ----
const disp = new SSD1306();
const gram = disp.gram;
let frames = 0;
let drewData = false;
function transaction(bytes) {
  if (disp.write(bytes)) drewData = true;
}

// ---- the canvas: drawn at a whole number of screen pixels per panel pixel ----
const canvas = document.getElementById("oled");
function fit() {
  const box = document.getElementById("panel").getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  // the largest whole number of device pixels per panel pixel that fits the width, and the
  // height the rest of the page leaves (the buttons, the menu, the line of keys)
  let rest = 24 + 24 + 8;       // the body's padding, the bezel's, a margin
  for (const el of document.querySelector("main").children) {
    if (el.id !== "panel" && el.id !== "spoken" && !el.hidden) rest += el.getBoundingClientRect().height + 18;   // (main's gap)
  }
  const across = Math.floor((box.width - 24) * dpr / 128);
  const down = Math.floor(Math.max(0, window.innerHeight - rest) * dpr / 64);
  const k = Math.max(Math.ceil(2 * dpr), Math.min(across, down));
  canvas.style.width = (128 * k) / dpr + "px";
  canvas.style.height = (64 * k) / dpr + "px";
}
window.addEventListener("resize", fit);
const ctx = canvas.getContext("2d");
const image = ctx.createImageData(128, 64);
const frameTimes = [];      // when each frame was painted (performance.now()): make bench-web
function paint() {
  frameTimes.push(performance.now());
  if (frameTimes.length > 512) frameTimes.splice(0, 256);
  // the OLED's look: pale blue-white light on black; dimmed by the contrast, dark when off
  const d = disp;
  const level = d.on ? 0.6 + 0.4 * (d.contrast / 255) : 0;
  const r = Math.round(200 * level), g = Math.round(230 * level), b = Math.round(255 * level);
  const px = image.data;
  for (let y = 0; y < 64; y++) {
    const row = (y >> 3) * 128, bit = 1 << (y & 7);
    for (let x = 0; x < 128; x++) {
      const lit = ((gram[row + x] & bit) !== 0) !== d.invert;
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

// ---- the flash: the device's files kept in localStorage ----
function fileKey(path) { return KEY + path.slice(DATA.length + 1); }
function inData(path) { return typeof path === "string" && path.startsWith(DATA + "/"); }
function toStored(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return s;
}
function fromStored(s) {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

const storage = {
  faults: [],          // what localStorage refused (said on the page)
  writes: 0,
  // a test's stand-in for the tab closing partway through a save: after this many more
  // storage steps nothing more is kept (null: never)
  cutAfter: null,
  dead: false,
  step(fn) {
    if (this.dead) return;
    if (this.cutAfter !== null && this.cutAfter-- <= 0) { this.dead = true; return; }
    fn();
    this.writes++;
  },
  names() {
    const out = [];
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k.startsWith(KEY)) out.push(k.slice(KEY.length));
    }
    return out.sort();
  },
};

function used(FS) {
  // the bytes the device's files take now (MEMFS holds exactly what localStorage holds,
  // and the file being written)
  let n = 0;
  for (const name of FS.readdir(DATA)) {
    if (name === "." || name === "..") continue;
    const st = FS.stat(DATA + "/" + name);
    if (FS.isFile(st.mode)) n += st.size;
  }
  return n;
}

function keepFiles(FS) {
  // MicroPython's file calls end in Emscripten's FS: each one that changes a file under
  // DATA is mirrored to localStorage at once (synchronously: a closed tab keeps it).
  // A file is kept when it is closed after writing (write_atomic's .tmp, an append); a
  // rename moves it (the .tmp's key removed first: the space it held is what the new
  // content needs, so the move can never run out of room; a tab closed in between keeps
  // the save before); a removal removes it.
  const { write, close, rename, unlink } = FS;
  FS.write = function (stream, buffer, offset, length, position, canOwn) {
    if (inData(stream.path) && length > 0) {
      const append = (stream.flags & 1024) !== 0;     // O_APPEND: at the end, whatever position says
      const end = (append ? stream.node.usedBytes : position ?? stream.position) + length;
      const grow = Math.max(0, end - stream.node.usedBytes);
      if (grow && used(FS) + grow > QUOTA) throw new FS.ErrnoError(ENOSPC);
      stream.wrote = true;
    }
    return write.call(this, stream, buffer, offset, length, position, canOwn);
  };
  FS.close = function (stream) {
    const path = stream.path, wrote = stream.wrote;
    const r = close.call(this, stream);
    if (wrote && inData(path)) {
      const text = toStored(FS.readFile(path));
      storage.step(() => {
        try { localStorage.setItem(fileKey(path), text); } catch (e) { storage.faults.push(String(e)); }
      });
    }
    return r;
  };
  FS.rename = function (from, to) {
    const r = rename.call(this, from, to);
    if (inData(from) && inData(to)) {
      const text = localStorage.getItem(fileKey(from));
      storage.step(() => localStorage.removeItem(fileKey(from)));
      if (text !== null) {
        storage.step(() => {
          try { localStorage.setItem(fileKey(to), text); } catch (e) { storage.faults.push(String(e)); }
        });
      }
    }
    return r;
  };
  FS.unlink = function (path) {
    const r = unlink.call(this, path);
    if (inData(path)) storage.step(() => localStorage.removeItem(fileKey(path)));
    return r;
  };
}

// ---- the buttons ----
const BITS = { up: 1, down: 2, left: 4, right: 8, ok: 16 };
const KEYS = { ArrowUp: 1, ArrowDown: 2, ArrowLeft: 4, ArrowRight: 8, Enter: 16, " ": 16 };
let mp = null, dev = null;
let held = 0, lastChange = -1e9, timer = null, stepping = false;
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

function setHeld(bits) {
  if (bits === held) return;
  held = bits;
  lastChange = performance.now();
  if (dev) { dev.buttons(held); wake(); }
}
function recompute() {
  let b = 0;
  for (const v of pointers.values()) b |= v;
  for (const v of keysDown.values()) b |= v;
  setHeld(b);
}
function longOk() {
  // Escape: OK held past the long press (BACK), as the simulator's Escape does
  // (its own name: the Escape key's keyup, at once, must not let go of it)
  keysDown.set("long-ok", 16); recompute();
  setTimeout(() => { keysDown.delete("long-ok"); recompute(); }, LONG_OK_MS);
}
function helpChord() {
  // Help: OK held and UP pressed
  keysDown.set("help-ok", 16); recompute();
  setTimeout(() => { keysDown.set("help-up", 1); recompute(); }, 60);
  setTimeout(() => { keysDown.delete("help-up"); keysDown.delete("help-ok"); recompute(); }, 180);
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

// ---- the loop: the app stepped from the page's event loop ----
let threeButtons = null;
function showLayout() {
  const three = dev.three_button();
  if (three === threeButtons) return;
  threeButtons = three;
  document.body.classList.toggle("three", three);
}

let spokenCount = 0;
function speak() {
  // what the device says on its notes, for a screen reader (the panel is a picture)
  const n = dev.said_count();
  if (n === spokenCount) return;
  const all = PyProxyList(dev.said());
  spoken.textContent = all.slice(spokenCount).join(" ");
  spokenCount = n;
}

function stepOnce() {
  drewData = false;
  const pause = dev.step();
  if (drewData) { frames++; paint(); showLayout(); speak(); }
  if (storage.faults.length) say("The browser did not keep a file: " + storage.faults.shift());
  return pause;
}

function run() {
  timer = null;
  if (stepping) return;
  stepping = true;
  let pause;
  try {
    pause = stepOnce();
    // a key already waiting: take it now, a few at most before the page breathes
    for (let i = 0; i < 8 && pause === 0; i++) pause = stepOnce();
  } catch (e) {
    stepping = false;
    fatal(e);
    return;
  }
  stepping = false;
  const busy = held || performance.now() - lastChange < ACTIVE_MS;
  const wait = pause === 0 ? 0 : busy ? Math.min(pause, POLL_MS) : Math.max(pause, IDLE_MS);
  timer = setTimeout(run, wait);
}
function wake() {
  if (stepping || TEST_CLOCK) return;
  if (timer !== null) clearTimeout(timer);
  timer = setTimeout(run, 0);
}

// ---- messages, the menu ----
const note = document.getElementById("note");
const spoken = document.getElementById("spoken");
function say(text) { note.textContent = text; note.hidden = !text; fit(); }
function fatal(e) {
  console.error(e);
  say("The device stopped: " + (e && e.message ? e.message : e) + ". Reload the page; saved games are kept.");
}

async function unpack(FS, buf) {
  // device.bin (tools/build/web_build.py): "P10W", then per file: u16 name length, the name
  // (UTF-8), u32 size, the bytes
  const v = new DataView(buf);
  const u8 = new Uint8Array(buf);
  if (String.fromCharCode(...u8.subarray(0, 4)) !== "P10W") throw new Error("device.bin is not a device pack");
  const dec = new TextDecoder();
  let at = 4;
  while (at < buf.byteLength) {
    const n = v.getUint16(at, true); at += 2;
    const name = dec.decode(u8.subarray(at, at + n)); at += n;
    const size = v.getUint32(at, true); at += 4;
    const path = "/app/" + name;
    FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    FS.writeFile(path, u8.subarray(at, at + size));
    at += size;
  }
}

function restoreFiles(FS) {
  FS.mkdirTree(DATA);
  for (const name of storage.names()) {
    if (name.includes("/")) continue;
    FS.writeFile(DATA + "/" + name, fromStored(localStorage.getItem(KEY + name)));
  }
}

async function boot() {
  const t0 = performance.now();
  const [micro, pack] = await Promise.all([
    loadMicroPython({ heapsize: 8 * 1024 * 1024, stdout: (l) => console.log(l), stderr: (l) => console.error(l) }),
    fetch("device.bin").then((r) => { if (!r.ok) throw new Error("device.bin: " + r.status); return r.arrayBuffer(); }),
  ]);
  mp = micro;
  const FS = mp.FS;
  await unpack(FS, pack);
  restoreFiles(FS);
  keepFiles(FS);
  mp.registerJsModule("pagejs", {
    i2c_write(addr, at, n, stop) {
      if (addr !== 0x3c) return false;
      const M = mp._module;
      const bytes = new Uint8Array(n);
      for (let i = 0; i < n; i++) bytes[i] = M.getValue(at + i, "i8") & 255;
      transaction(bytes);
      return true;
    },
  });
  // (from /app, as from a board's root: the engine reads its data files beside its modules)
  mp.runPython("import sys, os\nsys.path[:0] = ['/app']\nos.chdir('/app')\nimport webdevice");
  dev = mp.pyimport("webdevice");
  // the dice's random source: a seed from the browser's crypto, never from the clock
  const seed = crypto.getRandomValues(new Uint32Array(1))[0] || 1;
  drewData = false;
  dev.start(Number(params.get("seed")) || seed, TEST_CLOCK);
  frames++;
  paint();
  showLayout();
  speak();
  window.oled.firstFrameMs = performance.now() - t0;
  document.body.classList.add("ready");
  if (!TEST_CLOCK) run();
}

function PyProxyList(p) {
  // a Python list handed over as a JS array of strings
  const out = [];
  for (const x of p) out.push(String(x));
  return out;
}

function files() {
  const out = {};
  for (const name of storage.names()) out[name] = fromStored(localStorage.getItem(KEY + name));
  return out;
}

// a zip file (stored, no compression) of the device's files: the folder the PC companion reads
const CRC = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; t[n] = c >>> 0; }
  return t;
})();
function crc32(b) { let c = 0xffffffff; for (let i = 0; i < b.length; i++) c = CRC[(c ^ b[i]) & 255] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; }
function zip(folder, entries) {
  const enc = new TextEncoder();
  const parts = [], central = [];
  let offset = 0;
  for (const [name, data] of Object.entries(entries)) {
    const nm = enc.encode(folder + "/" + name), crc = crc32(data);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true); local.setUint16(4, 20, true); local.setUint16(6, 0x800, true);
    local.setUint32(14, crc, true); local.setUint32(18, data.length, true); local.setUint32(22, data.length, true);
    local.setUint16(26, nm.length, true);
    parts.push(new Uint8Array(local.buffer), nm, data);
    const cen = new DataView(new ArrayBuffer(46));
    cen.setUint32(0, 0x02014b50, true); cen.setUint16(4, 20, true); cen.setUint16(6, 20, true); cen.setUint16(8, 0x800, true);
    cen.setUint32(16, crc, true); cen.setUint32(20, data.length, true); cen.setUint32(24, data.length, true);
    cen.setUint16(28, nm.length, true); cen.setUint32(42, offset, true);
    central.push(new Uint8Array(cen.buffer), nm);
    offset += 30 + nm.length + data.length;
  }
  const size = central.reduce((n, p) => n + p.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true); end.setUint16(8, Object.keys(entries).length, true);
  end.setUint16(10, Object.keys(entries).length, true); end.setUint32(12, size, true); end.setUint32(16, offset, true);
  return new Blob([...parts, ...central, new Uint8Array(end.buffer)], { type: "application/zip" });
}

function download() {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(zip("phase10", files()));
  a.download = "phase10-files.zip";
  document.body.appendChild(a);
  a.click();
  a.remove();
}

function clearDisplay() {
  disp.reset();
}

function reboot(seed) {
  // the device started again on the files now in DATA, as a board reset
  held = 0; pointers.clear(); keysDown.clear();
  storage.dead = false; storage.cutAfter = null;
  clearDisplay();
  drewData = false;
  dev.buttons(0);
  dev.start(seed || crypto.getRandomValues(new Uint32Array(1))[0] || 1, TEST_CLOCK);
  spokenCount = 0;
  frames++; paint(); showLayout(); speak();
}

async function loadBack(list) {
  // files chosen by the player: each read as the device reads its own (in a scratch folder);
  // all taken, or none (the first refusal said in one line)
  const FS = mp.FS;
  const chosen = [];
  for (const file of list) chosen.push([file.name, new Uint8Array(await file.arrayBuffer())]);
  if (!chosen.length) return;
  FS.mkdirTree("/check");
  for (const [name, bytes] of chosen) {
    for (const n of FS.readdir("/check")) if (n !== "." && n !== "..") FS.unlink("/check/" + n);
    if (name.includes("/")) { say(name + " is not one of the device's files."); return; }
    FS.writeFile("/check/" + name, bytes);
    const why = dev.check_file(name);
    if (why) { say("Nothing loaded: " + why); return; }
  }
  for (const [name, bytes] of chosen) {
    const stream = FS.open(DATA + "/" + name + ".tmp", "w");
    FS.write(stream, bytes, 0, bytes.length, 0);
    FS.close(stream);
    FS.rename(DATA + "/" + name + ".tmp", DATA + "/" + name);
  }
  say("Loaded " + chosen.map(([n]) => n).join(", ") + ".");
  reboot();
}

window.device = {
  loadBack,
  restart(entries, seed) {
    // (tests) the device started again on these files ({name: text}) as its whole flash,
    // without loading the page again: as a board reset with these files on it
    const FS = mp.FS;
    for (const name of storage.names()) localStorage.removeItem(KEY + name);
    for (const name of FS.readdir(DATA)) if (name !== "." && name !== "..") FS.unlink(DATA + "/" + name);
    const enc = new TextEncoder();
    for (const [name, text] of Object.entries(entries || {})) {
      const bytes = enc.encode(text);
      localStorage.setItem(KEY + name, toStored(bytes));
      FS.writeFile(DATA + "/" + name, bytes);
    }
    reboot(seed || 1);
  },
  advance(ms) {
    // (TEST_CLOCK) ms of the device's time, stepped as its loop steps
    drewData = false;
    dev.advance(ms);
    if (drewData) { frames++; paint(); showLayout(); speak(); }
  },
  files,
  storage,
  said: () => PyProxyList(dev.said()),
  get quota() { return QUOTA; },
  set quota(n) { QUOTA = n; },
  download,
  held: () => held,
};

document.getElementById("download").addEventListener("click", download);
document.getElementById("load").addEventListener("change", (e) => {
  loadBack([...e.target.files]).catch(fatal).finally(() => { e.target.value = ""; });
});
wireButtons();
fit();
if ("serviceWorker" in navigator && !params.has("nosw")) {
  navigator.serviceWorker.register("sw.js").catch((e) => console.warn("offline copy not installed:", e));
}
boot().catch(fatal);
