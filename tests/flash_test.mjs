// web/flash.mjs, the browser's flash, on handles held in memory (node --test; run by
// tests/test_web_flash.py): every change kept or refused whole, a write cut short at any
// byte leaving the files as before it, the snapshot into the other image surviving a cut
// at any point, the browser's refusal an error with nothing changed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Flash, ENOSPC, EIO, crc32, deviceName } from "../web/flash.mjs";

class Handle {
  // an OPFS synchronous access handle, in memory: limit is the room the browser gives
  // (past it a write throws QuotaExceededError and truncate leaves the size as it was,
  // as Chromium does)
  constructor(limit = Infinity) { this.b = new Uint8Array(0); this.limit = limit; this.broken = false; }
  getSize() { return this.b.length; }
  truncate(n) {
    if (n > this.limit) return;
    const nb = new Uint8Array(n);
    nb.set(this.b.subarray(0, Math.min(n, this.b.length)));
    this.b = nb;
  }
  read(buf, { at }) {
    const n = Math.max(0, Math.min(buf.length, this.b.length - at));
    buf.set(this.b.subarray(at, at + n));
    return n;
  }
  write(buf, { at }) {
    if (this.broken) { const e = new Error("io"); e.name = "InvalidStateError"; throw e; }
    if (at + buf.length > this.limit) { const e = new Error("quota"); e.name = "QuotaExceededError"; throw e; }
    if (at + buf.length > this.b.length) this.truncate(at + buf.length);
    this.b.set(buf, at);
    return buf.length;
  }
  flush() {}
  close() {}
  copy() { const h = new Handle(this.limit); h.b = this.b.slice(); return h; }
}

const SIZE = 64 * 1024;
const enc = new TextEncoder(), dec = new TextDecoder();
const bytes = (s) => enc.encode(s);

function fresh(size = SIZE, limit = Infinity) {
  const f = new Flash([new Handle(limit), new Handle(limit)], size);
  f.reserve();
  assert.equal(f.mount().fresh, true);
  assert.equal(f.format([]), 0);
  return f;
}
function reopen(f) {
  // the page opened again on what the browser kept
  const g = new Flash(f.handles.map((h) => h.copy()), f.size);
  assert.equal(g.mount().fresh, false);
  return g;
}
function text(f) {
  const out = {};
  for (const [n, v] of f.files) out[n] = dec.decode(v.data);
  return out;
}

// a device's day: whole saves, appended hands, a rename over a file, a removal
const DAY = [
  (f) => f.put("settings.json.tmp", bytes('{"contrast":9}'), 1),
  (f) => f.rename("settings.json.tmp", "settings.json", 2),
  (f) => f.put("game.json", bytes('{"format":"phase10","v":2}\n'), 3),
  (f) => f.append("game.json", 27, bytes('{"out":0,"left":[null,5]}\n'), 4),
  (f) => f.append("game.json", 53, bytes('{"out":1,"left":[5,null]}\n'), 5),
  (f) => f.put("roster.json.tmp", bytes('[["Ann",1,1,0,2]]'), 6),
  (f) => f.rename("roster.json.tmp", "roster.json", 7),
  (f) => f.append("history.json", 0, bytes('{"format":"phase10-history","v":2}\n{"n":1}\n'), 8),
  (f) => f.remove("game.json"),
];
function day1(f, i) { assert.equal(DAY[i](f), 0); }
function day(f) {
  // the whole day: the files after each change (and before the first)
  const states = [text(f)];
  for (let i = 0; i < DAY.length; i++) { day1(f, i); states.push(text(f)); }
  return states;
}

test("every change is read back after the page is opened again", () => {
  const f = fresh();
  const states = day(f);
  assert.deepEqual(text(reopen(f)), states[states.length - 1]);
  assert.deepEqual(Object.keys(states[states.length - 1]).sort(), ["history.json", "roster.json", "settings.json"]);
  // a file renamed keeps the time its contents were written (the zip Download makes is dated so)
  assert.equal(reopen(f).files.get("settings.json").mtime, 1);
});

test("a write cut short at any byte leaves the files as they were before that change", () => {
  const base = fresh();
  const states = day(base);
  const steps = states.length - 1;
  for (let k = 0; k < steps; k++) {
    // the same day, cut at every byte of change k's record
    const probe = fresh();
    for (let i = 0; i < k; i++) day1(probe, i);
    const at = probe.pos;
    day1(probe, k);
    const len = probe.pos - at;
    assert.ok(len > 20);
    for (let cut = 0; cut < len; cut++) {
      const f = fresh();
      for (let i = 0; i < k; i++) day1(f, i);
      f.tear = cut;
      day1(f, k);
      assert.deepEqual(text(reopen(f)), states[k], "change " + k + " cut after " + cut + " of " + len + " bytes");
    }
  }
});
test("a full log goes into the other image whole, and a cut during that loses nothing", () => {
  const f = fresh(4096);
  let hand = 0, want = null;
  const line = (i) => bytes('{"out":' + (i % 2) + ',"left":[null,' + i + "]}\n");
  assert.equal(f.put("game.json", bytes("{}\n"), 0), 0);
  while (f.gen < 3) {
    const len = f.files.get("game.json").data.length;
    assert.equal(f.append("game.json", len, line(hand++), hand), 0);
  }
  want = text(f);
  assert.deepEqual(text(reopen(f)), want);
  // the next snapshot cut at every point: the files before it, whole, and the log after
  // it read on (the stale records of the image written over are never read)
  const len = f.files.get("game.json").data.length;
  let room = 0;
  const g0 = reopen(f);
  while (g0.pos + 200 < g0.size) { room++; assert.equal(g0.append("game.json", g0.files.get("game.json").data.length, line(99), 1), 0); }
  for (const cut of [0, 1, 15, 16, 17, 40, 100, 400]) {
    const g = reopen(f);
    for (let i = 0; i < room; i++) g.append("game.json", g.files.get("game.json").data.length, line(99), 1);
    const before = text(g);
    const gen = g.gen;
    // the next append fills the log: the snapshot is the write that is cut
    g.tear = cut;
    for (let i = 0; g.gen === gen && !g.gone && i < 50; i++) g.append("game.json", g.files.get("game.json").data.length, line(7), 1);
    const after = text(reopen(g));
    assert.ok(JSON.stringify(after) === JSON.stringify(before) || after["game.json"].startsWith(before["game.json"]),
      "a snapshot cut after " + cut + " bytes");
    assert.equal(reopen(g).files.get("game.json").data.length >= len, true);
  }
});

test("a write the browser refuses is an error, and nothing changes", () => {
  // the images could not be made at full size: the browser's room runs out on a write
  const f = new Flash([new Handle(3000), new Handle(3000)], SIZE);
  assert.equal(f.reserve(), false);
  f.mount();
  assert.equal(f.format([]), 0);
  assert.equal(f.put("roster.json", bytes("[]"), 1), 0);
  const before = text(f);
  assert.equal(f.put("history.json", new Uint8Array(5000), 2), ENOSPC);
  assert.deepEqual(text(f), before);
  assert.deepEqual(text(reopen(f)), before);
  // and it goes on from there: the next change that fits is kept
  assert.equal(f.put("settings.json", bytes("{}"), 3), 0);
  assert.deepEqual(Object.keys(text(reopen(f))).sort(), ["roster.json", "settings.json"]);
  // a failing disk: EIO, nothing changed
  f.handles[f.cur].broken = true;
  assert.equal(f.put("settings.json", bytes('{"a":1}'), 4), EIO);
  assert.equal(text(f)["settings.json"], "{}");
});

test("a batch (a Load) is kept whole or not at all", () => {
  const f = fresh();
  day(f);
  const before = text(f);
  const at = f.pos;
  assert.equal(f.batch(["roster.json"], [["game.json", bytes("G\n")], ["history.json", bytes("H\n")]], 9), 0);
  const len = f.pos - at;
  const after = text(f);
  assert.deepEqual(text(reopen(f)), after);
  for (let cut = 0; cut < len; cut += 3) {
    const g = fresh();
    day(g);
    g.tear = cut;
    g.batch(["roster.json"], [["game.json", bytes("G\n")], ["history.json", bytes("H\n")]], 9);
    assert.deepEqual(text(reopen(g)), before, "a batch cut after " + cut + " bytes");
  }
});

test("a stopped flash writes nothing more", () => {
  const f = fresh();
  day(f);
  const before = f.handles.map((h) => h.b.slice());
  f.close();
  assert.equal(f.put("x.json", bytes("{}"), 1), EIO);
  f.handles.forEach((h, i) => assert.deepEqual(h.b, before[i]));
});

test("names the device never writes are left alone", () => {
  for (const n of ["", ".", "..", "a/b", "x".repeat(65), "ü.json"]) assert.equal(deviceName(n), false, n);
  for (const n of ["game.json", "history.12.json", "settings.json.bad1", "roster.json.tmp"]) assert.equal(deviceName(n), true, n);
  const f = new Flash([new Handle(), new Handle()], SIZE);
  f.mount();
  assert.equal(f.format([["game.json", bytes("{}"), 1], ["..", bytes("x"), 1], ["", bytes("y"), 1]]), 0);
  assert.deepEqual(Object.keys(text(reopen(f))), ["game.json"]);
});

test("images of another generation are not mixed", () => {
  // an image whose header is whole but whose snapshot is not is never read
  const f = fresh(4096);
  for (let i = 0; f.gen < 2; i++) assert.equal(f.put("a.json", bytes("x".repeat(300 + i)), i), 0);
  const want = text(f);
  const g = reopen(f);
  g.handles[g.cur].b[40] ^= 0xff;        // the newer image's snapshot damaged
  const h = new Flash(g.handles, g.size);
  h.mount();
  assert.notEqual(h.gen, g.gen);          // the older image, whole, is read
  assert.ok(h.files.has("a.json"));
  assert.notDeepEqual(text(h), want);
});

test("the records an image held in an earlier generation are never read again", () => {
  // image A: generation 1 with nine records after its snapshot; two snapshots later it is
  // generation 3, whose snapshot is as long as generation 1's and whose log is shorter:
  // the old records beyond it are whole, in sequence, and of another generation
  const f = new Flash([new Handle(), new Handle()], SIZE);
  f.mount();
  assert.equal(f.format([["x.json", bytes("X"), 0]]), 0);
  for (let i = 1; i <= 9; i++) assert.equal(f.put("x.json", bytes(String(i)), 0), 0);
  assert.equal(f.compact(), 0);
  assert.equal(f.compact(), 0);
  assert.equal(f.gen, 3);
  assert.equal(f.put("x.json", bytes("A"), 0), 0);
  assert.equal(f.put("x.json", bytes("B"), 0), 0);
  assert.deepEqual(text(reopen(f)), { "x.json": "B" });
});

test("an image that does not start with a whole snapshot is not read", () => {
  // (a damaged or foreign image: its header whole and newer, its first record a plain
  // change, not the snapshot of every file)
  const f = fresh();
  day(f);
  const want = text(f);
  const other = 1 - f.cur, gen = f.gen + 5;
  const scratch = fresh();
  const at = scratch.pos;
  assert.equal(scratch.put("game.json", bytes("{}\n"), 0), 0);
  const rec = f.frame(gen, 0, scratch.handles[scratch.cur].b.slice(at + 20, scratch.pos));
  const head = new Uint8Array(16);
  const v = new DataView(head.buffer);
  v.setUint32(0, 0x46303150, true); v.setUint32(4, 1, true); v.setUint32(8, gen, true);
  v.setUint32(12, crc32(head, 0, 12), true);
  f.handles[other].write(head, { at: 0 });
  f.handles[other].write(rec, { at: 16 });
  const g = new Flash(f.handles, f.size);
  g.mount();
  assert.deepEqual(text(g), want);
});
