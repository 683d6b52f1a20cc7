// The draft of a hand half entered (web/webdraft.py makes it), kept beside the device's
// flash in the Origin Private File System: its own file, draft.bin, never a record of the
// flash's images (web/flash.mjs), so the board's rule that only commits are written to the
// flash stands. Written through a synchronous access handle as each frame of an entry is
// sent (a reload, a pull of the page or a phone discarding the tab finds it), cleared
// when no entry is open. A draft is kept for the very game.json it was taken with (its
// CRC): started on any other, it is dropped.
//
// draft.bin: u32 length, u32 CRC of the rest, u32 the game.json's CRC, then the draft's
// text (UTF-8); a write cut short fails its CRC and is no draft.
import { crc32 } from "./flash.mjs";

const HEAD = 12;
const enc = new TextEncoder();
const dec = new TextDecoder();

export class Draft {
  constructor(handle) {
    this.h = handle;
    this.last = null;         // the text last written ("" none): unchanged, nothing is written
  }

  /** The draft file of the device's folder, or null where the browser gives none; the
   *  browser's error where another tab's worker holds it still (NoModificationAllowedError). */
  static async open(dir) {
    try {
      const root = await navigator.storage.getDirectory();
      const d = await root.getDirectoryHandle(dir, { create: true });
      const f = await d.getFileHandle("draft.bin", { create: true });
      return new Draft(await f.createSyncAccessHandle());
    } catch (e) {
      if (e && e.name === "NoModificationAllowedError") throw e;
      return null;
    }
  }

  /** {text, game} as written, or null (none, or cut short). */
  read() {
    try {
      const n = this.h.getSize();
      if (n < HEAD) return null;
      const b = new Uint8Array(n);
      if (this.h.read(b, { at: 0 }) !== n) return null;
      const v = new DataView(b.buffer);
      const len = v.getUint32(0, true);
      if (len !== n - HEAD || v.getUint32(4, true) !== crc32(b, 8)) return null;
      return { game: v.getUint32(8, true), text: dec.decode(b.subarray(HEAD)) };
    } catch (e) {
      return null;
    }
  }

  /** Keep text ("": none) for the game.json whose CRC is game. */
  write(text, game) {
    if (text === this.last) return;
    this.last = text;
    try {
      if (!text) {
        this.h.truncate(0);
      } else {
        const t = enc.encode(text);
        const b = new Uint8Array(HEAD + t.length);
        const v = new DataView(b.buffer);
        v.setUint32(0, t.length, true);
        v.setUint32(8, game >>> 0, true);
        b.set(t, HEAD);
        v.setUint32(4, crc32(b, 8), true);
        this.h.truncate(0);
        this.h.write(b, { at: 0 });
      }
      this.h.flush();
    } catch (e) {
      // (a browser that refuses it: the entry is simply not kept through a reload)
      this.last = null;
    }
  }

  close() {
    try {
      this.h.close();
    } catch (e) {
      /* already let go */
    }
  }
}
