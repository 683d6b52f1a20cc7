// The device itself, off the page's thread: MicroPython's WebAssembly port running the
// board's own firmware (device.bin), with its flash in the Origin Private File System
// (web/flash.mjs, through synchronous access handles, which only a worker may hold) and its
// panel's bus decoded here (web/ssd1306.mjs). The page (web/device.mjs) sends the buttons
// held and gets each frame back; it holds the Web Lock that makes this the only device of
// the browser, and stops this worker before another tab's reads the files.
//
// Messages from the page: start, buttons, load, files, running, stop; with the tests'
// hooks (a build for the tests only: tools/build/web_build.py) also advance, restart and hook.
// To the page: frame, said, layout, ready, note, reply, fatal.
import { loadMicroPython } from "./micropython.mjs";
import { SSD1306 } from "./ssd1306.mjs";
import { Flash, deviceName, crc32, ENOENT, EIO, ENOSPC } from "./flash.mjs";
import { Draft } from "./draft.mjs";

// Only the tests' build turns this on (tools/build/web_build.py writes it): the published site
// honours no test option
const HOOKS = false;
const DATA = "/data";          // the device's files, as firmware/main.py's root
// What the device's files may take, in bytes: its flash. Past this the device is told its
// flash is full (ENOSPC), as littlefs would, and makes room or says so.
let QUOTA = 2_000_000;
// Each image holds a snapshot of every file and the log after it: two flash's worth and a
// margin, made at full size at the first start (the room is then the device's own)
const IMAGE = 2 * 2_000_000 + (256 << 10);
const POLL_MS = 10;            // the app's poll while a button is in play
const IDLE_MS = 100;           // ... and when nothing is (the page's message wakes it anyway)
const ACTIVE_MS = 1500;        // after a button change, polled at POLL_MS this long
// What Load takes: the device's own files, no larger than the device and the PC companion
// read (a game or a history: 512 KB; the settings: firmware/files/settings_file.py's
// TEXT_LIMIT; the roster: firmware/files/store.py's TEXT_MAX), no line longer than the device writes (firmware/history/entries.py LINE_MAX)
const LINE_MAX = 2048;
const SIZE_MAX = { "game.json": 512 * 1024, "settings.json": 512, "roster.json": 8192 };
const HISTORY_MAX = 512 * 1024;

let mp = null, dev = null, FS = null;
let flash = null;              // null: no storage (blocked or failing): said at start
let testClock = false;
let stopped = false;
let held = 0, lastChange = -1e9, timer = null;
const disp = new SSD1306();
let drewData = false;
const post = (m, transfer) => postMessage(m, transfer || []);
// Where a start's time goes (make bench-web reports it): when each stage ended, on the
// clock every thread shares (ms since 1970); the page gets them as ms since its navigation
const marks = { created: performance.timeOrigin, worker: performance.timeOrigin + performance.now() };
const mark = (name) => { marks[name] = performance.timeOrigin + performance.now(); };
function stagesSince(origin) {
  const out = {};
  for (const [k, v] of Object.entries(marks)) out[k] = Math.round((v - origin) * 10) / 10;
  return out;
}

// ---- the panel ----
function sendFrame() {
  const gram = disp.gram.slice();
  post({ t: "frame", gram, on: disp.on, invert: disp.invert, contrast: disp.contrast }, [gram.buffer]);
}
let saidCount = 0, three = null;
function sendNews() {
  sendFrame();
  afterFrame();
  const n = dev.said_count();
  if (n !== saidCount) {
    const all = [];
    for (const x of dev.said()) all.push(String(x));
    post({ t: "said", from: saidCount, texts: all.slice(saidCount) });
    saidCount = n;
  }
  const t = dev.three_button();
  if (t !== three) { three = t; post({ t: "layout", three: t }); }
}

// ---- the table's views and the draft of an entry (web/webtable.py, web/webdraft.py) ----
let views = null, drafts = null, draft = null, tableDue = null, drafting = false;
function afterFrame() {
  // the entry open now kept as the draft (none: cleared); the views made anew after a commit
  if (drafting) draft.write(drafts.snapshot(), gameCrc());
  if (views && tableDue === null) tableDue = setTimeout(sendTable, 0);
}
function sendTable() {
  tableDue = null;
  if (!views || stopped) return;
  const s = views.state();
  if (s !== null) post({ t: "table", state: s });
}
function gameCrc() {
  const f = flash ? flash.files.get("game.json") : null;
  return f ? crc32(f.data) : 0;
}
function resumeDraft(d) {
  // the entry a reload (or a discarded tab) left (d: the draft read before the start), on
  // the very game it was taken with; from here on each frame's entry is kept
  drafting = draft !== null;
  if (d && d.game && d.game === gameCrc() && drafts.resume(d.text)) sendNews();
  else if (drafting) draft.write("", 0);
}
async function openDraft(dir) {
  // (the tab this one took over lets its handle go as it stops: tried again meanwhile, as
  // the flash's images are, exclusive() below)
  const t0 = Date.now();
  for (;;) {
    try {
      return await Draft.open(dir);
    } catch (e) {
      if (stopped || Date.now() - t0 > 60000) return null;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

// ---- the flash: what the firmware's store calls (web/flash.py) ----
const inData = (p) => typeof p === "string" && p.startsWith(DATA + "/") && p.indexOf("/", DATA.length + 1) < 0;
const nameOf = (p) => p.slice(DATA.length + 1);

function memfsUsed() {
  let n = 0;
  for (const name of FS.readdir(DATA)) {
    if (name === "." || name === "..") continue;
    const st = FS.stat(DATA + "/" + name);
    if (FS.isFile(st.mode)) n += st.size;
  }
  return n;
}
function asBefore(path, before) {
  // a change the browser refused: the in-memory copy back to what is kept
  try {
    if (before) FS.writeFile(path, before.data); else FS.unlink(path);
  } catch (e) { /* it was not there */ }
}
function commit(path, at) {
  // a file closed after writing: kept whole in the browser's storage, or refused (errno)
  if (!inData(path) || !flash) return 0;
  const name = nameOf(path);
  if (!deviceName(name)) { asBefore(path, null); return EIO; }
  const bytes = FS.readFile(path);
  const before = flash.files.get(name);
  const grow = bytes.length - (before ? before.data.length : 0);
  let err;
  if (flash.dead) err = EIO;
  else if (grow > 0 && flash.live + grow > QUOTA) err = ENOSPC;
  else if (at > 0 && before && before.data.length === at) err = flash.append(name, at, bytes.subarray(at), Date.now());
  else err = flash.put(name, bytes, Date.now());
  if (err) asBefore(path, before);
  return err;
}
function rename(src, dst) {
  try { FS.stat(src); } catch (e) { return ENOENT; }
  if (flash && inData(src) && inData(dst)) {
    const from = nameOf(src), to = nameOf(dst);
    let err = 0;
    if (flash.dead) err = EIO;
    else if (flash.files.has(from)) err = flash.rename(from, to, Date.now());
    else if (flash.files.has(to)) err = flash.remove(to);
    if (err) return err;
  }
  try { FS.rename(src, dst); } catch (e) { return e.errno || EIO; }
  return 0;
}
function remove(path) {
  try { FS.stat(path); } catch (e) { return ENOENT; }
  if (flash && inData(path) && flash.files.has(nameOf(path))) {
    const err = flash.dead ? EIO : flash.remove(nameOf(path));
    if (err) return err;
  }
  try { FS.unlink(path); } catch (e) { return e.errno || EIO; }
  return 0;
}
const live = () => (flash ? flash.live : memfsUsed());

// ---- start ----
async function exclusive(fh) {
  // the image's only handle: another tab's worker, told to stop, lets it go at once (a
  // minute allowed: a phone or a machine busy with other work ends a worker slowly)
  const t0 = Date.now();
  for (;;) {
    try {
      return await fh.createSyncAccessHandle();
    } catch (e) {
      if (e.name !== "NoModificationAllowedError" || Date.now() - t0 > 60000) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
async function openFlash(dir) {
  const root = await navigator.storage.getDirectory();
  const d = await root.getDirectoryHandle(dir, { create: true });
  const handles = [];
  try {
    for (const n of ["flash-a.img", "flash-b.img"]) handles.push(await exclusive(await d.getFileHandle(n, { create: true })));
  } catch (e) {
    for (const h of handles) h.close();
    throw e;
  }
  return new Flash(handles, IMAGE);
}

function same(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

async function mountStorage(m) {
  // the files from the browser's storage: {notes, migrated (localStorage names to drop)}
  const notes = [], migrated = [];
  try {
    flash = await openFlash(m.dir);
  } catch (e) {
    flash = null;
    if (e.name === "NoModificationAllowedError") return { busy: true };
    notes.push("This browser keeps no files for this page (" + (e.name || "blocked") + "): games will not be kept.");
    return { notes, migrated };
  }
  flash.reserve();
  const got = flash.mount();
  const legacy = m.legacy || [];
  if (got.fresh) {
    // the first start with this storage: the files earlier versions kept in localStorage
    // come over once, whole, in the first image
    const err = flash.format(legacy.filter(([n]) => deviceName(n)).map(([n, b]) => [n, b, Date.now()]));
    if (err) {
      flash.close();
      flash = null;
      notes.push("This browser's storage is full: games will not be kept. Free some space and reload.");
      return { notes, migrated };
    }
    for (const [n] of legacy) if (deviceName(n)) migrated.push(n);
    const odd = legacy.filter(([n]) => !deviceName(n)).map(([n]) => n);
    if (odd.length) {
      notes.push("Left alone in this browser's storage, not the device's: " + odd.map((n) => JSON.stringify(n)).join(", ") + ".");
    }
  } else {
    // earlier versions' copies of what came over already (a tab closed before it dropped them)
    for (const [n, b] of legacy) {
      const f = flash.files.get(n);
      if (f && same(f.data, b)) migrated.push(n);
    }
  }
  if (flash.odd.length) notes.push("Left alone in this browser's storage, not the device's: " + flash.odd.join(", ") + ".");
  if (!flash.reserved) {
    notes.push("The browser gave the device less room than a board's flash: the device may run out of room sooner.");
  }
  return { notes, migrated };
}

async function unpack(buf) {
  // device.bin (tools/build/web_build.py): "P10W", then per file: u16 name length, the name
  // (UTF-8), u32 size, the bytes
  const v = new DataView(buf);
  const u8 = new Uint8Array(buf);
  if (String.fromCharCode(...u8.subarray(0, 4)) !== "P10W") throw new Error("device.bin is not a device pack");
  const d = new TextDecoder();
  let at = 4;
  while (at < buf.byteLength) {
    const n = v.getUint16(at, true); at += 2;
    const name = d.decode(u8.subarray(at, at + n)); at += n;
    const size = v.getUint32(at, true); at += 4;
    const path = "/app/" + name;
    FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    FS.writeFile(path, u8.subarray(at, at + size));
    at += size;
  }
}

function toMemfs() {
  // the files the flash holds, as the port's filesystem holds them for the firmware to read
  FS.mkdirTree(DATA);
  for (const n of FS.readdir(DATA)) if (n !== "." && n !== "..") FS.unlink(DATA + "/" + n);
  if (flash) for (const [name, f] of flash.files) FS.writeFile(DATA + "/" + name, f.data);
}

function boot(seed, note) {
  disp.reset();
  held = 0;
  staged.stages = null;
  drewData = false;
  saidCount = 0;
  three = null;
  if (views) views.forget();
  dev.start(seed, testClock, note || "");
  sendNews();
}

// What needs no storage is made ready as soon as the worker is loaded (the page creates it
// first thing, web/index.html), while the page loads and takes the device's lock: the port,
// the firmware unpacked into its filesystem and the page's modules imported. start() then
// only reads the storage and starts the device on it.
async function prepare() {
  const [micro, pack] = await Promise.all([
    loadMicroPython({ heapsize: 8 * 1024 * 1024, stdout: (l) => console.log(l), stderr: (l) => console.error(l) })
      .then((v) => { mark("port"); return v; }),
    fetch("device.bin").then((r) => { if (!r.ok) throw new Error("device.bin: " + r.status); return r.arrayBuffer(); })
      .then((v) => { mark("pack"); return v; }),
  ]);
  mp = micro;
  FS = mp.FS;
  await unpack(pack);
  mark("unpack");
  // (a turn of the event loop: a start waiting meanwhile begins reading the storage, whose
  // calls the browser answers while the modules below are imported)
  await new Promise((r) => setTimeout(r, 0));
  mp.registerJsModule("pagejs", {
    i2c_write(addr, at, n, stop) {
      if (addr !== 0x3c) return false;
      const M = mp._module;
      const bytes = new Uint8Array(n);
      for (let i = 0; i < n; i++) bytes[i] = M.getValue(at + i, "i8") & 255;
      if (disp.write(bytes)) drewData = true;
      return true;
    },
    commit, rename, remove,
    room_total: () => QUOTA,
    room_free: () => Math.max(0, QUOTA - live()),
    random_bytes(n) {
      // the browser's crypto, for what must not repeat (a game's identity)
      return Array.from(crypto.getRandomValues(new Uint8Array(n))).join(",");
    },
  });
  // (from /app, as from a board's root: the engine reads its data files beside its modules)
  mp.runPython("import sys, os\nsys.path[:0] = ['/app']\nos.chdir('/app')\nimport webdevice");
  dev = mp.pyimport("webdevice");
  views = mp.pyimport("webtable");
  drafts = mp.pyimport("webdraft");
  mark("import");
}
const prepared = prepare();
prepared.catch(() => {});      // (said by start, which waits for it)

async function start(m) {
  const t0 = performance.now();
  mark("start");
  testClock = HOOKS && m.testClock;
  if (HOOKS && m.quota) QUOTA = m.quota;
  const [, storage, drafted] = await Promise.all([
    prepared,
    mountStorage(m).then((v) => { mark("storage"); return v; }),
    openDraft(m.dir),
  ]);
  if (storage.busy) {
    if (drafted) drafted.close();
    post({ t: "busy" });
    return;
  }
  toMemfs();
  draft = flash ? drafted : null;     // (no storage kept: no draft either)
  if (drafted && !draft) drafted.close();
  mark("files");
  // the dice's random source: a seed from the browser's crypto, never from the clock
  const seed = (HOOKS && m.seed) || crypto.getRandomValues(new Uint32Array(1))[0] || 1;
  const note = storage.notes.join(" ");
  const kept = draft ? draft.read() : null;
  boot(seed, note);
  mark("boot");
  resumeDraft(kept);
  post({ t: "ready", ms: performance.now() - t0, stages: stagesSince(m.origin || performance.timeOrigin), migrated: storage.migrated, note,
         kept: flash !== null, reserved: flash ? flash.reserved : false });
  if (!testClock) run();
}

// ---- the buttons ----
function press(bits) {
  lastChange = performance.now();
  dev.buttons(bits);
  wake();
}
// A press the page asks for (Escape's long OK, Help's chord: [bits, ms] stages), timed
// here: each stage lasts its time from the first step of the app that saw it, so a worker
// running late still gives the app the whole press
const staged = {
  stages: null, at: 0, seen: null,
  bits() { return this.stages ? this.stages[this.at][0] : 0; },
  start(stages) { this.stages = stages; this.at = 0; this.seen = null; post({ t: "pressed", bits: this.bits() }); },
  stepped(t) {
    if (!this.stages) return;
    if (this.seen === null) { this.seen = t; return; }
    if (t - this.seen < this.stages[this.at][1]) return;
    this.seen = null;
    if (++this.at >= this.stages.length) this.stages = null;
    post({ t: "pressed", bits: this.bits() });
    press(held | this.bits());
  },
};

// ---- the loop ----
function stepOnce() {
  drewData = false;
  const t = performance.now();
  const pause = dev.step();
  staged.stepped(t);
  if (drewData) sendNews();
  return pause;
}
function run() {
  timer = null;
  if (stopped) return;
  let pause;
  try {
    pause = stepOnce();
    // a key already waiting: take it now, a few at most before the worker breathes
    for (let i = 0; i < 8 && pause === 0; i++) pause = stepOnce();
  } catch (e) {
    fatal(e);
    return;
  }
  const busy = held || staged.stages || performance.now() - lastChange < ACTIVE_MS;
  const wait = pause === 0 ? 0 : busy ? Math.min(pause, POLL_MS) : Math.max(pause, IDLE_MS);
  timer = setTimeout(run, wait);
}
function wake() {
  if (stopped || testClock || !dev) return;
  if (timer !== null) clearTimeout(timer);
  timer = setTimeout(run, 0);
}
function fatal(e) {
  console.error(e);
  stopped = true;
  post({ t: "fatal", message: String(e && e.message ? e.message : e) });
}

// ---- Load: files checked whole, then switched to in one step ----
function historyName(name) {
  return /^history\.[1-9][0-9]{0,5}\.json$/.test(name) || name === "history.json";
}
function kept(name) {
  return name === "game.json" || name === "settings.json" || name === "roster.json" || historyName(name);
}
function longLine(bytes) {
  // the first line longer than the device writes (1-based), or 0: one pass
  let start = 0, line = 1;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 10) {
      if (i - start > LINE_MAX) return line;
      start = i + 1;
      line++;
    }
  }
  return bytes.length - start > LINE_MAX ? line : 0;
}
function checkLoad(files, extra) {
  // one line why the files cannot be taken as they are, or null; files becomes what is
  // written (a history merged), extra gets {remove, message}
  const seen = new Set();
  for (const [name, bytes] of files) {
    if (!kept(name)) return name + " is not one of the device's files (game.json, settings.json, roster.json, history.json, history.N.json).";
    if (seen.has(name)) return name + " is there twice.";
    seen.add(name);
    const max = historyName(name) ? HISTORY_MAX : SIZE_MAX[name];
    if (bytes.length > max) return name + " is larger than the device reads (" + bytes.length + " bytes, at most " + max + ").";
    const long = longLine(bytes);
    if (long) return name + " line " + long + " is longer than the device writes (" + LINE_MAX + " bytes).";
  }
  FS.mkdirTree("/check/merged");
  for (const d of ["/check/merged", "/check"]) {
    for (const n of FS.readdir(d)) if (n !== "." && n !== ".." && FS.isFile(FS.stat(d + "/" + n).mode)) FS.unlink(d + "/" + n);
  }
  for (const [name, bytes] of files) FS.writeFile("/check/" + name, bytes);
  for (const [name] of files) {
    const why = dev.check_file(name);
    if (why) return why;
  }
  // the history loaded is merged into the device's by each game's id
  const histories = files.map(([n]) => n).filter(historyName);
  if (histories.length) {
    const merged = JSON.parse(dev.merge_histories(histories.join(",")));
    if (merged.error) return merged.error;
    files.splice(0, files.length, ...files.filter(([n]) => !historyName(n)));
    for (const n of merged.write) files.push([n, FS.readFile("/check/merged/" + n)]);
    extra.remove = merged.remove;
    extra.message = merged.message;
  }
  let after = live();
  for (const n of extra.remove) {
    const before = flash ? flash.files.get(n) : null;
    if (before && !files.some(([m]) => m === n)) after -= before.data.length;
  }
  for (const [name, bytes] of files) {
    const before = flash ? flash.files.get(name) : null;
    after += bytes.length - (before ? before.data.length : 0);
  }
  if (after > QUOTA) {
    return "the device has room for " + Math.floor(QUOTA / 1024) + " KB of files, and these would make " + Math.ceil(after / 1024) + " KB.";
  }
  return null;
}
function load(m) {
  // {ok, message} or {ask}: a running game is replaced only once the player has said so
  const files = m.files.map(([n, b]) => [n, new Uint8Array(b)]);
  if (!files.length) return { ok: false, message: "Nothing loaded: no file chosen." };
  const names = files.map(([n]) => n);
  const extra = { remove: [], message: "" };
  const why = checkLoad(files, extra);
  if (why) return { ok: false, message: "Nothing loaded: " + why };
  if (names.includes("game.json") && !m.replace && dev.running()) return { ask: dev.running() };
  // a game file loaded goes with no journal of another game's finish, nor a stale copy
  const removes = extra.remove.filter((n) => flash && flash.files.has(n));
  for (const name of files.map(([n]) => n)) {
    for (const extra of [name + ".tmp"]) if (flash && flash.files.has(extra)) removes.push(extra);
  }
  if (flash) {
    const err = flash.batch(removes, files, Date.now());
    if (err) return { ok: false, message: "Nothing loaded: the browser did not keep the files (" + (err === ENOSPC ? "its storage is full" : "a storage error") + ")." };
  }
  for (const n of removes.concat(extra.remove)) { try { FS.unlink(DATA + "/" + n); } catch (e) { /* not there */ } }
  for (const [name, bytes] of files) FS.writeFile(DATA + "/" + name, bytes);
  if (draft) draft.write("", 0);
  boot(crypto.getRandomValues(new Uint32Array(1))[0] || 1);
  return { ok: true, message: "Loaded " + names.join(", ") + "." + (extra.message ? " " + extra.message : "") };
}

function files() {
  // {name: {data, mtime}}: what the browser keeps (with no storage, what the device holds)
  const out = {};
  if (flash) {
    for (const [name, f] of flash.files) out[name] = { data: f.data.slice(), mtime: f.mtime };
  } else if (FS) {
    for (const name of FS.readdir(DATA)) {
      if (name === "." || name === "..") continue;
      const st = FS.stat(DATA + "/" + name);
      if (FS.isFile(st.mode)) out[name] = { data: FS.readFile(DATA + "/" + name), mtime: st.mtime.getTime() };
    }
  }
  return out;
}

function stop() {
  // another tab has the device now: nothing more is stepped or written here
  stopped = true;
  if (timer !== null) clearTimeout(timer);
  timer = null;
  if (flash) flash.close();
  if (draft) draft.close();
  draft = null;
  drafting = false;
}

// ---- the tests' hooks (the tests' build only) ----
function restart(m) {
  // the device started again on these files ({name: text}) as its whole flash
  const enc = new TextEncoder();
  const puts = Object.entries(m.files || {}).map(([n, t]) => ({ op: 1, name: n, mtime: Date.now(), data: enc.encode(t) }));
  if (flash) {
    flash.gone = false; flash.cutAfter = null; flash.tear = null;
    const err = flash.write({ op: 5, clear: true, changes: puts });
    if (err) throw new Error("restart: storage refused (" + err + ")");
  }
  FS.mkdirTree(DATA);
  for (const n of FS.readdir(DATA)) if (n !== "." && n !== "..") FS.unlink(DATA + "/" + n);
  for (const p of puts) FS.writeFile(DATA + "/" + p.name, p.data);
  if (draft) draft.write("", 0);
  boot(m.seed || 1);
}
function advance(ms) {
  drewData = false;
  dev.advance(ms);
  if (drewData) sendNews();
}
function hook(m) {
  if (m.quota !== undefined) QUOTA = m.quota;
  if (m.draftFrozen !== undefined) drafting = !m.draftFrozen && draft !== null;   // (the tab gone before the draft followed)
  if (flash) {
    if (m.cutAfter !== undefined) flash.cutAfter = m.cutAfter;
    if (m.tear !== undefined) flash.tear = m.tear;
  }
  return { quota: QUOTA, live: live(), kept: flash !== null, writes: flash ? flash.writes : 0,
           gen: flash ? flash.gen : 0, reserved: flash ? flash.reserved : false, gone: flash ? flash.gone : false,
           ms: flash ? flash.ms : 0 };
}

onmessage = (e) => {
  const m = e.data;
  const reply = (value) => post({ t: "reply", id: m.id, value });
  try {
    if (m.t === "start") { start(m).catch(fatal); return; }
    if (m.t === "buttons") {
      if (!dev || stopped) return;
      held = m.bits;
      press(held | staged.bits());
      return;
    }
    if (m.t === "press") {
      if (!dev || stopped) return;
      staged.start(m.stages);
      press(held | staged.bits());
      return;
    }
    if (m.t === "stop") { stop(); reply(true); return; }
    if (stopped) { reply(null); return; }
    if (m.t === "load") { reply(load(m)); return; }
    if (m.t === "files") { reply(files()); return; }
    if (m.t === "running") { reply(dev ? dev.running() : ""); return; }
    if (HOOKS && m.t === "advance") { advance(m.ms); reply(true); return; }
    if (HOOKS && m.t === "restart") { restart(m); reply(true); return; }
    if (HOOKS && m.t === "hook") { reply(hook(m)); return; }
    reply(null);
  } catch (err) {
    fatal(err);
    reply(null);
  }
};
