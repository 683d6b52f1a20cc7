// The device's flash in the browser: its files kept in two image files of the Origin Private
// File System, written through synchronous access handles (web/worker.mjs opens them), so
// that every change is kept, or refused, before the firmware's call returns: a save the
// browser did not keep is an error to the firmware, as a full or failed flash is on a board.
//
// An image is a log, as littlefs is: a header, then records, each a whole change (a file
// written, a line appended, a rename, a removal, or a batch of them: a Load is one record).
// A record is checked by its CRC, its generation and its sequence number, so a record cut
// short (the tab closed, the power of the phone gone, halfway through a write) ends the log
// there: the change it carried never happened. Nothing is ever overwritten in place:
// when the log is full, every file is written as one snapshot into the other image, under
// the next generation, and only once that is whole is it the one read (a cut during it
// leaves the image before, whole). The images are made at their full size at the first
// start, so the room they need is the device's own: another page of the origin filling the
// storage cannot take it.
//
// Works on any handle with read/write({at}), getSize, truncate, flush and close (OPFS's
// FileSystemSyncAccessHandle; tests/flash_test.mjs gives it a fake one in memory).

export const ENOENT = 2, EIO = 5, ENOSPC = 28;

const IMAGE_MAGIC = 0x46303150;   // "P10F"
const RECORD_MAGIC = 0x52303150;  // "P10R"
const VERSION = 1;
const HEADER = 16;                // magic, version, generation, CRC of the first 12 bytes
const RECORD_HEAD = 20;           // magic, generation, sequence, payload length, payload CRC
const PUT = 1, APPEND = 2, RENAME = 3, REMOVE = 4, BATCH = 5;
const MAX_RECORD = 64 << 20;      // (a length past this is a damaged record, not a record)

// The names the device writes: letters, digits, dot, dash and underscore, never "." or "..":
// anything else found in storage is not the device's and is left alone (and said)
export function deviceName(name) {
  return typeof name === "string" && name.length > 0 && name.length <= 64 && name !== "." && name !== ".."
    && /^[A-Za-z0-9._-]+$/.test(name);
}

const CRC = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();
export function crc32(b, from = 0, to = b.length) {
  let c = 0xffffffff;
  for (let i = from; i < to; i++) c = CRC[(c ^ b[i]) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

// ---- a record's payload: built by Out, read by In ----
class Out {
  constructor() { this.parts = []; this.size = 0; }
  u8(v) { this.parts.push(Uint8Array.of(v)); this.size += 1; }
  u32(v) { const b = new Uint8Array(4); new DataView(b.buffer).setUint32(0, v >>> 0, true); this.parts.push(b); this.size += 4; }
  f64(v) { const b = new Uint8Array(8); new DataView(b.buffer).setFloat64(0, v, true); this.parts.push(b); this.size += 8; }
  name(s) { const b = enc.encode(s); this.u32(b.length); this.bytes(b); }
  bytes(b) { this.parts.push(b); this.size += b.length; }
  blob(b) { this.u32(b.length); this.bytes(b); }
  done() {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const p of this.parts) { out.set(p, at); at += p.length; }
    return out;
  }
}
class In {
  constructor(b) { this.b = b; this.v = new DataView(b.buffer, b.byteOffset, b.byteLength); this.at = 0; }
  need(n) { if (this.at + n > this.b.length) throw new Error("short record"); }
  u8() { this.need(1); return this.b[this.at++]; }
  u32() { this.need(4); const v = this.v.getUint32(this.at, true); this.at += 4; return v; }
  f64() { this.need(8); const v = this.v.getFloat64(this.at, true); this.at += 8; return v; }
  bytes(n) { this.need(n); const b = this.b.subarray(this.at, this.at + n); this.at += n; return b; }
  name() { return dec.decode(this.bytes(this.u32())); }
  blob() { return this.bytes(this.u32()); }
}

function encodeChange(o, c) {
  o.u8(c.op);
  if (c.op === PUT) { o.name(c.name); o.f64(c.mtime); o.blob(c.data); }
  else if (c.op === APPEND) { o.name(c.name); o.f64(c.mtime); o.u32(c.at); o.blob(c.data); }
  else if (c.op === RENAME) { o.name(c.from); o.name(c.to); o.f64(c.mtime); }
  else if (c.op === REMOVE) { o.name(c.name); }
  else if (c.op === BATCH) {
    o.u8(c.clear ? 1 : 0);
    o.u32(c.changes.length);
    for (const s of c.changes) encodeChange(o, s);
  }
}
function decodeChange(r) {
  const op = r.u8();
  if (op === PUT) return { op, name: r.name(), mtime: r.f64(), data: r.blob() };
  if (op === APPEND) return { op, name: r.name(), mtime: r.f64(), at: r.u32(), data: r.blob() };
  if (op === RENAME) return { op, from: r.name(), to: r.name(), mtime: r.f64() };
  if (op === REMOVE) return { op, name: r.name() };
  if (op === BATCH) {
    const clear = r.u8() === 1, n = r.u32(), changes = [];
    for (let i = 0; i < n; i++) changes.push(decodeChange(r));
    return { op, clear, changes };
  }
  throw new Error("unknown record " + op);
}

function errno(e) {
  // what the browser said, as a flash would say it: no room, or a failure
  return e && (e.name === "QuotaExceededError" || e.code === 22) ? ENOSPC : EIO;
}

function wipe(h, at) {
  // the head of a record the browser refused partway, zeroed so that it is never read as
  // whole: best effort (where even that is refused, its CRC ends the log there)
  try {
    h.write(new Uint8Array(RECORD_HEAD), { at });
  } catch (e) {
    return false;
  }
  return true;
}
function grow(h, size) {
  // the image made its full size: false where the browser refused (the caller reads the size)
  try {
    h.truncate(size);
  } catch (e) {
    return false;
  }
  return true;
}

export class Flash {
  /** handles: the two images' access handles. size: each image's size (the log's room);
   *  it must hold two copies of the most the device keeps (a snapshot and a record). */
  constructor(handles, size) {
    this.handles = handles;
    this.size = size;
    this.files = new Map();   // name -> {data: Uint8Array, mtime: ms since 1970}
    this.live = 0;            // the bytes the files take
    this.cur = 0;             // the image in use, its generation, the next record's
    this.gen = 0;             // sequence number and where it goes
    this.seq = 0;
    this.pos = 0;
    this.reserved = false;    // both images made at full size (their room is the device's)
    this.odd = [];            // names in storage that are not the device's, left alone
    this.dead = false;        // stopped (another tab took the device over): writes nothing
    this.writes = 0;          // records written (the tests' storage steps)
    this.ms = 0;              // the time spent writing and flushing (make bench-web)
    // (tests) the tab closed partway: after cutAfter more handle writes nothing more is
    // written, and tear of the next write's bytes are written first (a write cut short)
    this.cutAfter = null;
    this.tear = null;
    this.gone = false;
  }

  // ---- reading the images at start ----
  read(h, at, n) {
    const b = new Uint8Array(n);
    const got = h.read(b, { at });
    return got === n ? b : null;
  }
  header(i) {
    const h = this.handles[i];
    if (h.getSize() < HEADER) return null;
    const b = this.read(h, 0, HEADER);
    if (!b) return null;
    const v = new DataView(b.buffer);
    if (v.getUint32(0, true) !== IMAGE_MAGIC || v.getUint32(4, true) !== VERSION) return null;
    if (v.getUint32(12, true) !== crc32(b, 0, 12)) return null;
    return v.getUint32(8, true);
  }
  record(i, at, gen, seq) {
    // the change at `at` in image i, with its end, or null where the log ends
    const h = this.handles[i], total = h.getSize();
    if (at + RECORD_HEAD > total) return null;
    const head = this.read(h, at, RECORD_HEAD);
    if (!head) return null;
    const v = new DataView(head.buffer);
    if (v.getUint32(0, true) !== RECORD_MAGIC || v.getUint32(4, true) !== gen || v.getUint32(8, true) !== seq) return null;
    const n = v.getUint32(12, true);
    if (n > MAX_RECORD || at + RECORD_HEAD + n > total) return null;
    const body = this.read(h, at + RECORD_HEAD, n);
    if (!body || crc32(body) !== v.getUint32(16, true)) return null;
    try {
      return { change: decodeChange(new In(body)), end: at + RECORD_HEAD + n };
    } catch (e) {
      return null;
    }
  }

  /** Read the files from the newer whole image: {fresh: no image yet, odd: names that are
   *  not the device's (left out)}. */
  mount() {
    let best = null;
    for (let i = 0; i < 2; i++) {
      const gen = this.header(i);
      if (gen === null) continue;
      // an image counts only once its snapshot (its first record) is whole
      const first = this.record(i, HEADER, gen, 0);
      if (!first || first.change.op !== BATCH || !first.change.clear) continue;
      if (!best || gen > best.gen) best = { i, gen, first };
    }
    this.files.clear();
    this.live = 0;
    if (!best) return { fresh: true };
    this.cur = best.i;
    this.gen = best.gen;
    this.apply(best.first.change);
    let at = best.first.end, seq = 1;
    for (;;) {
      const r = this.record(best.i, at, best.gen, seq);
      if (!r) break;
      this.apply(r.change);
      at = r.end;
      seq++;
    }
    this.seq = seq;
    this.pos = at;
    return { fresh: false };
  }

  apply(c) {
    // one change to the files in memory, as replayed or as just written
    if (c.op === BATCH) {
      if (c.clear) { this.files.clear(); this.live = 0; }
      for (const s of c.changes) this.apply(s);
      return;
    }
    if (c.op === PUT) {
      if (!deviceName(c.name)) { this.odd.push(c.name); return; }
      this.drop(c.name);
      this.files.set(c.name, { data: c.data.slice(), mtime: c.mtime });
      this.live += c.data.length;
    } else if (c.op === APPEND) {
      const f = this.files.get(c.name);
      const before = f ? f.data : new Uint8Array(0);
      const data = new Uint8Array(c.at + c.data.length);
      data.set(before.subarray(0, c.at));
      data.set(c.data, c.at);
      this.drop(c.name);
      this.files.set(c.name, { data, mtime: c.mtime });
      this.live += data.length;
    } else if (c.op === RENAME) {
      const f = this.files.get(c.from);
      if (!f) return;
      this.files.delete(c.from);
      this.drop(c.to);
      this.files.set(c.to, { data: f.data, mtime: f.mtime });
    } else if (c.op === REMOVE) {
      this.drop(c.name);
    }
  }
  drop(name) {
    const f = this.files.get(name);
    if (f) { this.live -= f.data.length; this.files.delete(name); }
  }

  // ---- writing ----
  raw(i, bytes, at) {
    // one write to an image, checked: all of it written, else the browser's refusal
    if (this.gone) return 0;
    if (this.cutAfter !== null && this.cutAfter-- <= 0) { this.gone = true; return 0; }
    if (this.tear !== null) {
      const k = Math.min(this.tear, bytes.length);
      this.tear = null;
      this.handles[i].write(bytes.subarray(0, k), { at });
      this.gone = true;
      return 0;
    }
    const h = this.handles[i];
    let n;
    const t0 = performance.now();
    try {
      n = h.write(bytes, { at });
      h.flush();
    } catch (e) {
      return errno(e);
    } finally {
      this.ms += performance.now() - t0;
    }
    // (Chromium answers a write past the quota with a short count, not an error)
    return n === bytes.length ? 0 : ENOSPC;
  }
  frame(gen, seq, payload) {
    const rec = new Uint8Array(RECORD_HEAD + payload.length);
    const v = new DataView(rec.buffer);
    v.setUint32(0, RECORD_MAGIC, true);
    v.setUint32(4, gen, true);
    v.setUint32(8, seq, true);
    v.setUint32(12, payload.length, true);
    v.setUint32(16, crc32(payload), true);
    rec.set(payload, RECORD_HEAD);
    return rec;
  }
  write(change) {
    // one change made durable, then applied: 0, or ENOSPC / EIO with nothing changed
    if (this.dead) return EIO;
    const o = new Out();
    encodeChange(o, change);
    const payload = o.done();
    if (this.pos + RECORD_HEAD + payload.length > this.size) {
      const err = this.compact();
      if (err) return err;
      if (this.pos + RECORD_HEAD + payload.length > this.size) return ENOSPC;
    }
    const rec = this.frame(this.gen, this.seq, payload);
    const err = this.raw(this.cur, rec, this.pos);
    if (err) {
      // a record the browser refused partway must not be read back as whole: its head is
      // wiped (best effort: where even that fails, its CRC ends the log there)
      wipe(this.handles[this.cur], this.pos);
      return err;
    }
    this.pos += rec.length;
    this.seq++;
    this.writes++;
    this.apply(change);
    return 0;
  }
  snapshot(gen, changes) {
    // an image's whole bytes: its header, then one record holding every file
    const o = new Out();
    encodeChange(o, { op: BATCH, clear: true, changes });
    const rec = this.frame(gen, 0, o.done());
    const img = new Uint8Array(HEADER + rec.length);
    const v = new DataView(img.buffer);
    v.setUint32(0, IMAGE_MAGIC, true);
    v.setUint32(4, VERSION, true);
    v.setUint32(8, gen, true);
    v.setUint32(12, crc32(img, 0, 12), true);
    img.set(rec, HEADER);
    return img;
  }
  puts() {
    return [...this.files].map(([name, f]) => ({ op: PUT, name, mtime: f.mtime, data: f.data }));
  }
  compact(extra = null) {
    // every file into the other image, under the next generation; it is read from then on
    const other = 1 - this.cur, gen = this.gen + 1;
    const img = this.snapshot(gen, extra || this.puts());
    if (img.length > this.size) return ENOSPC;
    const err = this.raw(other, img, 0);
    if (err) return err;
    this.cur = other;
    this.gen = gen;
    this.seq = 1;
    this.pos = img.length;
    this.writes++;
    return 0;
  }

  /** The first image, at the first start: with files brought from elsewhere (the
   *  localStorage of earlier versions), [[name, bytes, mtime]]. */
  format(files) {
    const changes = files.filter(([name]) => deviceName(name))
      .map(([name, data, mtime]) => ({ op: PUT, name, mtime, data }));
    this.gen = 0;
    this.cur = 1;     // (so that compact() writes image 0, generation 1)
    const err = this.compact(changes);
    if (err) return err;
    this.files.clear();
    this.live = 0;
    this.apply({ op: BATCH, clear: true, changes });
    return 0;
  }

  /** Make both images their full size, so their room is the device's own. */
  reserve() {
    let ok = true;
    for (const h of this.handles) {
      if (h.getSize() >= this.size) continue;
      // (past the quota Chromium leaves the file as it was, without an error; the size
      // read back is what tells)
      grow(h, this.size);
      if (h.getSize() < this.size) ok = false;
    }
    this.reserved = ok;
    return ok;
  }

  // ---- the changes the device makes ----
  put(name, data, mtime) { return this.write({ op: PUT, name, mtime, data }); }
  append(name, at, data, mtime) { return this.write({ op: APPEND, name, at, mtime, data }); }
  rename(from, to, mtime) { return this.write({ op: RENAME, from, to, mtime }); }
  remove(name) { return this.write({ op: REMOVE, name }); }
  /** Several changes in one step (a Load): all kept, or none. */
  batch(removes, puts, mtime) {
    const changes = removes.map((name) => ({ op: REMOVE, name }))
      .concat(puts.map(([name, data]) => ({ op: PUT, name, mtime, data })));
    return this.write({ op: BATCH, clear: false, changes });
  }

  /** Stop for good: nothing more is written (another tab has the device now). */
  close() {
    this.dead = true;
    for (const h of this.handles) {
      // (every write was flushed as it was made: this only lets the handle go)
      try {
        h.close();
      } catch (e) {
        continue;
      }
    }
  }
}
