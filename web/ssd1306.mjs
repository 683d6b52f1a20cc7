// The SSD1306's side of the bus: its command decoder and its display RAM, fed the bytes of
// each I2C write to it (after the address). Shared by the device in the browser
// (web/device.mjs: the page's panel) and the emulated Pico of make bench-board
// (tools/bench/board/emu.mjs): both show what a real panel would, from the same bytes.
// (Solomon Systech SSD1306 datasheet rev 1.5, sections 9-10: a control byte with Co set is
// followed by one command or data byte and another control byte; with Co clear, the rest
// of the write is commands (D/C clear) or data. Horizontal and vertical addressing move
// through the column and page window; page addressing only along the page.)

// commands and how many argument bytes follow each
const ARGS = { 0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8d: 1, 0xa8: 1, 0xd3: 1, 0xd5: 1, 0xd9: 1,
               0xda: 1, 0xdb: 1, 0xad: 1, 0xa3: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2a: 5 };

export class SSD1306 {
  constructor() {
    this.gram = new Uint8Array(1024);   // byte page*128 + x: column x, rows 8p..8p+7, bit 0 on top
    this.reset();
  }

  reset() {
    // as at power-on: RAM cleared, horizontal window the whole panel, display off
    this.gram.fill(0);
    this.mode = 0; this.c0 = 0; this.c1 = 127; this.p0 = 0; this.p1 = 7; this.col = 0; this.page = 0;
    this.pending = []; this.need = 0;
    this.on = false; this.invert = false; this.contrast = 255;
  }

  command(b) {
    if (this.need) {
      this.pending.push(b);
      if (--this.need) return;
      const [c, a, z] = this.pending;
      if (c === 0x20) this.mode = a & 3;
      else if (c === 0x21) { this.c0 = a & 127; this.c1 = z & 127; this.col = this.c0; }
      else if (c === 0x22) { this.p0 = a & 7; this.p1 = z & 7; this.page = this.p0; }
      else if (c === 0x81) this.contrast = a;
      this.pending = [];
      return;
    }
    if (ARGS[b]) { this.pending = [b]; this.need = ARGS[b]; return; }
    if (b >= 0xb0 && b <= 0xb7) this.page = b & 7;
    else if (b < 0x10) this.col = (this.col & 0xf0) | b;
    else if (b < 0x20) this.col = (this.col & 0x0f) | ((b & 0xf) << 4);
    else if (b === 0xae) this.on = false;
    else if (b === 0xaf) this.on = true;
    else if (b === 0xa6) this.invert = false;
    else if (b === 0xa7) this.invert = true;
  }

  data(b) {
    if (this.col < 128) this.gram[this.page * 128 + this.col] = b;
    if (this.mode === 2) { this.col++; return; }
    if (this.col >= this.c1) {
      this.col = this.c0;
      this.page = this.page >= this.p1 ? this.p0 : this.page + 1;
    } else this.col++;
  }

  write(bytes) {
    // one I2C write's bytes; true when it carried display data
    let i = 0;
    let isData = false;
    while (i < bytes.length) {
      const c = bytes[i++];
      const dc = c & 0x40;
      if (c & 0x80) {
        if (i < bytes.length) { if (dc) this.data(bytes[i++]); else this.command(bytes[i++]); }
        if (dc) isData = true;
        continue;
      }
      for (; i < bytes.length; i++) { if (dc) this.data(bytes[i]); else this.command(bytes[i]); }
      if (dc) isData = true;
    }
    return isData;
  }
}
