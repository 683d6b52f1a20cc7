// make bench-board's board: MicroPython's rp2 port (RPI_PICO) in the rp2040js emulator, with
// the Pico's edges the firmware uses: an SSD1306 at 0x3C on I2C0 (GP4/GP5), five buttons on
// GP16-20 (pulled up: a press pulls the pin low), the SPI flash's erase and program (not
// emulated by rp2040js: done here on the image and charged at the chip's datasheet times) and
// the USB serial port (rp2040js's CDC host, bridged to a pseudo-terminal by socat so mpremote
// and `make deploy` talk to it unchanged).
//
// tools/bench/bench_board.py drives it: one JSON command a line on stdin, one JSON answer a line on
// stdout. Time is the emulator's: instruction cycles at 125 MHz, no XIP wait states.
import fs from 'fs';
import readline from 'readline';
import { spawn } from 'child_process';
import { Simulator, USBCDC, GPIOPin } from 'rp2040js';
import { bootromB1 } from './bootrom_b1.mjs';
import { latchEdgesOnChangeOnly } from './gpio_edges.mjs';
import { SSD1306 } from '../../../web/ssd1306.mjs';

const NS_PER_CYCLE = 8;            // 125 MHz
const FLASH_BASE = 0x10000000;
const SSD1306_ADDR = 0x3c;
const FRAME_GAP_NS = 2e6;          // display writes closer than this belong to one frame
const SETTLE_QUIET_NS = 300e6;     // settled: no frame for 300 ms ...
const SETTLE_WINDOW_MS = 50;       // ... and asleep at least 80% of the last 50 ms
const SETTLE_ASLEEP = 0.8;
// Flash timings (W25Q16JV datasheet): typical, and the slow chip's maximum.
const FLASH_MODELS = {
  typical: { sectorNs: 45e6, blockNs: 150e6, pageNs: 0.4e6 },
  slow: { sectorNs: 400e6, blockNs: 2000e6, pageNs: 3e6 },
};

let mcu, clock, core, cdc;
// The chip's faults. rp2040js reports what a real RP2040 would fault on (an unaligned 32-bit
// read: a HardFault on the Cortex-M0+) through its logger's error() and then reads on as if
// the chip could; here the first one stops the run (runUntil throws it) with where the core
// was. It checks 32-bit reads only: the M0+ faults on every unaligned halfword or word
// access, so the chip's other accesses are checked here too (alignAccesses). Warnings are
// about what rp2040js does not model (a PLL's registers, a timer's pause): counted, by
// message, and said by the bench, never a reason to stop.
let fault = null;
let warnings = {};
let insnPC = 0;            // the instruction being executed (the core's PC has moved on)
// A flash erase or program stalls the core until this time: no instruction runs and no
// interrupt is taken (the rp2 port holds them off around the call), but the chip's other
// parts go on: alarms fall due, GPIO edges are latched in IO_BANK0's INTR.
let stallUntil = 0;
let erases = 0, lastEraseT = 0;
latchEdgesOnChangeOnly(GPIOPin);
let hooks = new Map();     // pc -> handler
// the hooked PCs (at most four: erase, program, gc_collect, its return) tested one by one:
// a test per hook per instruction costs less than a look-up
let hk0 = -1, hk1 = -1, hk2 = -1, hk3 = -1;
let flashModel = FLASH_MODELS.typical;
let flashLog = [];         // {t, erased, programmed, ns}
let heapLog = [];          // {t, live}
let heapArea = null;       // {atb, atbLen, pool, poolEnd}
let syms = {};
let gcReturn = -1;
let serialOut = [];
let cdcConnected = false;
// display
let disp = new SSD1306();
let gram = disp.gram;
let frames = [];           // {start, end, bytes}
let curFrame = null;
let lastFrameEnd = -1e18;
let busBytes = 0;
let byteNs = 22500;        // 9 clocks at 400 kHz until the registers say otherwise
// sleep accounting: cumulative ns asleep at each whole ms
let asleepNs = 0;
const CP = 128;
let cp = new Float64Array(CP);
let nextMs = 1;

function chipFault(component, message) {
  // the first fault only: what follows it on the chip would not have happened
  if (!fault) fault = { component, message, pc: insnPC >>> 0, lr: core.LR >>> 0, t: clock.nanos };
}

function makeLogger() {
  return {
    debug() {},
    info() {},
    warn(component, message) {
      // counted by the message's words, its numbers (an offset, a value, an address) left
      // out; the first one of each is kept as it was
      const key = `${component}: ${String(message).replace(/0x-?[0-9a-f]+|\b[0-9a-f]{4,8}\b|\b\d+\b/gi, 'N')}`;
      if (!warnings[key]) warnings[key] = { count: 0, first: `${component}: ${message}` };
      warnings[key].count++;
    },
    error(component, message) { chipFault(component, String(message)); },
  };
}

function alignAccesses() {
  // the Cortex-M0+ has no unaligned access: a halfword at an odd address, a word at one not a
  // multiple of 4 (rp2040js checks the word reads itself, and says so through error())
  const r16 = mcu.readUint16.bind(mcu), w16 = mcu.writeUint16.bind(mcu), w32 = mcu.writeUint32.bind(mcu);
  mcu.readUint16 = (a) => {
    if (a & 1) chipFault('RP2040', `read from address ${(a >>> 0).toString(16)}, which is not 16 bit aligned`);
    return r16(a);
  };
  mcu.writeUint16 = (a, v) => {
    if (a & 1) chipFault('RP2040', `write to address ${(a >>> 0).toString(16)}, which is not 16 bit aligned`);
    w16(a, v);
  };
  mcu.writeUint32 = (a, v) => {
    if (a & 3) chipFault('RP2040', `write to address ${(a >>> 0).toString(16)}, which is not 32 bit aligned`);
    w32(a, v);
  };
}

class ChipFault extends Error {}
function stopOnFault() {
  if (!fault) return;
  const f = fault;
  const e = new ChipFault(`${f.component}: ${f.message}`);
  e.fault = f;
  throw e;
}

function u8(addr) { return mcu.readUint8(addr); }
function u32(addr) { return mcu.readUint32(addr); }

function romFunc(code) {
  // the bootrom's function table: a 16-bit pointer at 0x14 to (code, address) pairs
  const rom = new Uint8Array(bootromB1.buffer);
  let p = rom[0x14] | (rom[0x15] << 8);
  for (;;) {
    const c = rom[p] | (rom[p + 1] << 8);
    if (!c) return -1;
    if (c === code) return (rom[p + 2] | (rom[p + 3] << 8)) & ~1;
    p += 4;
  }
}
const RE = 'R'.charCodeAt(0) | ('E'.charCodeAt(0) << 8);
const RP = 'R'.charCodeAt(0) | ('P'.charCodeAt(0) << 8);

function charge(ns) {
  // the core stalls (code runs from the flash being written, interrupts held off): time
  // passes in runUntil, which runs nothing until stallUntil; the buttons can change meanwhile
  stallUntil = clock.nanos + ns;
}

function setHook(pc, fn) {
  hooks.set(pc, fn);
  hookPCs();
}
function hookPCs() {
  const k = [...hooks.keys(), -1, -1, -1, -1];
  [hk0, hk1, hk2, hk3] = k;
}

function ret() { core.PC = core.LR & ~1; }

function flashErase() {
  const r = core.registers;
  const offs = r[0] >>> 0, count = r[1] >>> 0, blockSize = r[2] >>> 0;
  mcu.flash.fill(0xff, offs, offs + count);
  let ns = 0, a = offs;
  const end = offs + count;
  while (a < end) {
    if (blockSize && a % blockSize === 0 && a + blockSize <= end) { ns += flashModel.blockNs; a += blockSize; }
    else { ns += flashModel.sectorNs; a += 4096; }
  }
  flashLog.push({ t: clock.nanos, erased: count, programmed: 0, ns });
  erases++;
  lastEraseT = clock.nanos;
  ret();
  charge(ns);
  return true;
}

function flashProgram() {
  const r = core.registers;
  const offs = r[0] >>> 0, data = r[1] >>> 0, count = r[2] >>> 0;
  for (let i = 0; i < count; i++) mcu.flash[offs + i] &= u8(data + i);
  const ns = Math.ceil(count / 256) * flashModel.pageNs;
  flashLog.push({ t: clock.nanos, erased: 0, programmed: count, ns });
  ret();
  charge(ns);
  return true;
}

function findHeap() {
  // MP_STATE_MEM(area): the word holding the allocation table's start (__GcHeapStart), then
  // its length, [the finaliser table], the pool's start and end
  const [base, size] = syms.mp_state_ctx;
  const start = syms.__GcHeapStart;
  for (let a = base; a < base + size; a += 4) {
    if (u32(a) >>> 0 !== start) continue;
    const len = u32(a + 4) >>> 0;
    let pool = u32(a + 8) >>> 0, end = u32(a + 12) >>> 0;
    // with finalisers the table of them sits between (after a gap byte): the pool ends at
    // the heap's end, aligned down to a block
    if (syms.__GcHeapEnd - (u32(a + 16) >>> 0) < 16) { pool = u32(a + 12) >>> 0; end = u32(a + 16) >>> 0; }
    if (pool > start && end > pool && end <= syms.__GcHeapEnd) return { atb: start, atbLen: len, pool, poolEnd: end };
  }
  return null;
}

function liveHeap() {
  if (!heapArea) heapArea = findHeap();
  if (!heapArea) return -1;
  const blocks = (heapArea.poolEnd - heapArea.pool) / 16;
  let used = 0;
  for (let b = 0; b < blocks; b++) {
    const v = (u8(heapArea.atb + (b >> 2)) >> ((b & 3) * 2)) & 3;
    if (v) used++;
  }
  return used * 16;
}

// a collection: noted on its way out (gc_collect returns), when the heap holds only what lives
function gcEntry() {
  gcReturn = core.LR & ~1;
  setHook(gcReturn, gcExit);
  return false;
}
function gcExit() {
  hooks.delete(gcReturn);
  hookPCs();
  setHook(syms.gc_collect & ~1, gcEntry);
  gcReturn = -1;
  heapLog.push({ t: clock.nanos, live: liveHeap() });
  return false;
}

function markMs() {
  // keep cp[ms % CP] = asleepNs at that whole ms (time asleep grows only in sleep())
  const now = clock.nanos;
  while (nextMs * 1e6 <= now) { cp[nextMs % CP] = asleepNs; nextMs++; }
}

function sleep(dt) {
  const t0 = clock.nanos, s0 = asleepNs;
  clock.tick(dt);
  asleepNs += dt;
  const now = clock.nanos;
  while (nextMs * 1e6 <= now) { cp[nextMs % CP] = s0 + (nextMs * 1e6 - t0); nextMs++; }
}

function asleepShare() {
  const ms = nextMs - 1;
  if (ms < SETTLE_WINDOW_MS) return 0;
  return (cp[ms % CP] - cp[(ms - SETTLE_WINDOW_MS) % CP]) / (SETTLE_WINDOW_MS * 1e6);
}

let lastInput = 0;
function settled() {
  // no frame and no button change for SETTLE_QUIET_NS (a key's frame may be a few ms after
  // its edge), a first frame drawn, and the CPU mostly asleep
  const quiet = clock.nanos - Math.max(lastFrameEnd, lastInput);
  return lastFrameEnd > 0 && quiet >= SETTLE_QUIET_NS && asleepShare() >= SETTLE_ASLEEP;
}

let yieldEvery = 0;
async function runUntil(targetNs, stop) {
  let n = 0;
  while (clock.nanos < targetNs) {
    if (clock.nanos < stallUntil) {
      if (stop && stop()) return true;
      clock.tick(Math.min(stallUntil, targetNs) - clock.nanos);
      markMs();
      continue;
    }
    if (core.waiting) {
      // asleep until the next alarm (its interrupt wakes the core), or the target; an alarm
      // due now is fired by the least tick, not slept past
      let dt = clock.nanosToNextAlarm;
      if (dt <= 0) dt = clock.nextAlarm ? 1 : targetNs - clock.nanos;
      if (clock.nanos + dt > targetNs) dt = Math.max(targetNs - clock.nanos, 1);
      sleep(dt);
    } else {
      const pc = core.registers[15];
      if (pc === hk0 || pc === hk1 || pc === hk2 || pc === hk3) {
        if (hooks.get(pc)()) continue;   // true: the hook did the call itself
      }
      insnPC = pc;
      const cycles = core.executeInstruction();
      if (fault) stopOnFault();
      clock.tick(cycles * NS_PER_CYCLE);
      if ((++n & 0x3ff) === 0) markMs();
    }
    // a peripheral's error while the core slept or stalled (an alarm, a USB transfer)
    if (fault) stopOnFault();
    if ((++n & 0xfff) === 0) {
      markMs();
      if (stop && stop()) return true;
      if (yieldEvery && (n & 0x3ffff) === 0) await new Promise((r) => setImmediate(r));
    }
  }
  markMs();
  return stop ? stop() : false;
}

// ---- the display on I2C0 (its decoder: web/ssd1306.mjs, shared with the page) ----
function transaction(bytes, start, end) {
  const isData = disp.write(bytes);
  busBytes += bytes.length + 1;
  // a frame: the writes to the display with less than FRAME_GAP_NS between them; lit: the
  // display shows something after it (start-up's first frame only clears the panel)
  const lit = isData ? gram.some((b) => b !== 0) : (curFrame ? curFrame.lit : false);
  if (curFrame && start - curFrame.end < FRAME_GAP_NS) {
    curFrame.end = end; curFrame.bytes += bytes.length + 1; curFrame.data = curFrame.data || isData;
    curFrame.lit = lit;
  } else {
    curFrame = { start, end, bytes: bytes.length + 1, data: isData, lit };
    frames.push(curFrame);
  }
  lastFrameEnd = end;
}

function wireI2C() {
  const i2c = mcu.i2c[0];
  let bytes = null, txStart = 0, addr = -1;
  const later = (ns, fn) => clock.createAlarm(fn).schedule(ns);
  const bitNs = () => {
    const p = i2c.sclLowPeriod + i2c.sclHighPeriod;
    return p > 0 ? (p * 1e9) / mcu.clkSys : byteNs / 9;
  };
  i2c.onStart = () => { txStart = clock.nanos; bytes = []; later(bitNs(), () => i2c.completeStart()); };
  i2c.onConnect = (address) => {
    addr = address;
    byteNs = 9 * bitNs();
    later(byteNs, () => i2c.completeConnect(address === SSD1306_ADDR));
  };
  i2c.onWriteByte = (v) => { if (bytes) bytes.push(v); later(byteNs, () => i2c.completeWrite(true)); };
  i2c.onReadByte = () => later(byteNs, () => i2c.completeRead(0));
  i2c.onStop = () => {
    later(bitNs(), () => {
      if (addr === SSD1306_ADDR && bytes && bytes.length) transaction(bytes, txStart, clock.nanos);
      bytes = null;
      i2c.completeStop();
    });
  };
}

// ---- loading ----
function loadUF2(path) {
  const buf = fs.readFileSync(path);
  for (let off = 0; off + 512 <= buf.length; off += 512) {
    const v = new DataView(buf.buffer, buf.byteOffset + off, 512);
    if (v.getUint32(0, true) !== 0x0a324655 || v.getUint32(4, true) !== 0x9e5d5157) continue;
    const target = v.getUint32(12, true), size = v.getUint32(16, true);
    mcu.flash.set(buf.subarray(off + 32, off + 32 + size), target - FLASH_BASE);
  }
}

function fresh(a) {
  const sim = new Simulator();   // its simulation clock and chip; run here, not by its execute()
  clock = sim.clock;
  mcu = sim.rp2040;
  mcu.loadBootrom(bootromB1);
  fault = null;
  warnings = {};
  mcu.logger = makeLogger();
  core = mcu.core;
  alignAccesses();
  mcu.flash.fill(0xff);   // an erased chip
  if (a.flash) mcu.flash.set(fs.readFileSync(a.flash));
  if (a.uf2) loadUF2(a.uf2);
  flashModel = FLASH_MODELS[a.flash_model || 'typical'];
  syms = a.syms || {};
  hooks = new Map();
  setHook(romFunc(RE), flashErase);
  setHook(romFunc(RP), flashProgram);
  if (syms.gc_collect) setHook(syms.gc_collect & ~1, gcEntry);
  // a.heap_bytes: the heap MicroPython is given is that many bytes from __GcHeapStart (a
  // board with less RAM, an ESP32's first heap): gc_init(start, end) gets end moved down
  if (a.heap_bytes && syms.gc_init) {
    const at = syms.gc_init & ~1;
    setHook(at, () => {
      const r = core.registers;
      r[1] = ((r[0] >>> 0) + a.heap_bytes) >>> 0;
      hooks.delete(at);
      hookPCs();
      return false;
    });
  }
  heapArea = null; gcReturn = -1;
  stallUntil = 0; erases = 0; lastEraseT = 0;
  flashLog = []; heapLog = []; frames = []; curFrame = null; lastFrameEnd = -1e18; busBytes = 0;
  disp = new SSD1306(); gram = disp.gram;
  asleepNs = 0; cp = new Float64Array(CP); nextMs = 1;
  serialOut = []; cdcConnected = false; lastInput = 0;
  wireI2C();
  // the buttons released (pull-ups); I2C0's pins as the rp2 port's bit-banged probe reads
  // them: SCL high, SDA low (the display ACKs)
  for (const g of a.buttons || [16, 17, 18, 19, 20]) mcu.gpio[g].setInputValue(true);
  mcu.gpio[5].setInputValue(true);
  mcu.gpio[4].setInputValue(false);
  cdc = new USBCDC(mcu.usbCtrl);
  // A host NAKs the board's OUT requests until it has bytes to send; rp2040js's helper
  // answers each at once, empty, and the board's USB interrupt never stops (the CPU never
  // sleeps). Held here until there are bytes, from a queue of any length.
  toBoard = [];
  pendingRead = null;
  mcu.usbCtrl.onEndpointRead = (ep, size) => {
    if (ep !== cdc.outEndpoint) return;
    pendingRead = { ep, size };
    feedBoard();
  };
  cdc.onDeviceConnected = () => { cdcConnected = true; };
  cdc.onSerialData = (b) => { for (const x of b) serialOut.push(x); if (pty) pty.stdin.write(Buffer.from(b)); };
  core.PC = FLASH_BASE;   // boot stage 2 at the start of flash, as the bootrom would
}

let toBoard = [];
let pendingRead = null;
function feedBoard() {
  if (!pendingRead || !toBoard.length) return;
  const { ep, size } = pendingRead;
  pendingRead = null;
  const n = Math.min(size, toBoard.length);
  mcu.usbCtrl.endpointReadDone(ep, Uint8Array.from(toBoard.splice(0, n)));
}
function toSerial(bytes) { for (const b of bytes) toBoard.push(b); feedBoard(); }

// ---- keys ----
function setBits(gpios, bits) {
  lastInput = clock.nanos;
  for (let i = 0; i < gpios.length; i++) mcu.gpio[gpios[i]].setInputValue(!(bits & (1 << i)));
}

async function tapAt(gpios, bits, down, holdMs) {
  const up = down + holdMs * 1e6;
  await runUntil(down);
  setBits(gpios, bits);
  await runUntil(up);
  setBits(gpios, 0);
  return [down, up];
}

let pty = null;
function send(o) { process.stdout.write(JSON.stringify(o) + '\n'); }

const commands = {
  async load(a) { fresh(a); return { flash_model: a.flash_model || 'typical' }; },
  async run(a) { await runUntil(clock.nanos + a.ms * 1e6); return { t: clock.nanos }; },
  async settle(a) {
    const ok = await runUntil(clock.nanos + (a.max_ms || 60000) * 1e6, settled);
    return { t: clock.nanos, settled: ok, last_frame_end: lastFrameEnd };
  },
  async keys(a) {
    // steps [[bits, hold_ms, then_ms]] from now on, each at its time whatever the firmware does
    const gpios = a.gpios || [16, 17, 18, 19, 20];
    let t = clock.nanos;
    const out = [];
    for (const [bits, hold, then] of a.steps) {
      if (bits) {
        const down = t, up = t + hold * 1e6;
        out.push([down, up]);
        await runUntil(down);
        setBits(gpios, bits);
        await runUntil(up);
        setBits(gpios, 0);
      } else out.push(null);
      t += (hold + then) * 1e6;
      await runUntil(t);
    }
    return { t: clock.nanos, presses: out };
  },
  async flash_model(a) { flashModel = FLASH_MODELS[a.model]; return { model: a.model }; },
  async tap_on_erase(a) {
    // run until the next flash erase starts (within max_ms), then press bits delay_ms into
    // it for hold_ms, whatever the core is doing (a tap made as a save starts its flash work)
    const gpios = a.gpios || [16, 17, 18, 19, 20];
    const n0 = erases;
    const found = await runUntil(clock.nanos + (a.max_ms || 20000) * 1e6, () => erases > n0);
    if (!found) return { t: clock.nanos, erase: null };
    const t0 = lastEraseT, stall = stallUntil - t0;
    const [down, up] = await tapAt(gpios, a.bits, t0 + (a.delay_ms || 0) * 1e6, a.hold_ms);
    return { t: clock.nanos, erase: t0, erase_ns: stall, down, up };
  },
  async profile(a) {
    // where the time goes: the PC every 997 instructions over a.ms
    const hist = {};
    let n = 0;
    const end = clock.nanos + a.ms * 1e6;
    let sleepNs = 0;
    while (clock.nanos < end) {
      if (clock.nanos < stallUntil) { clock.tick(Math.min(stallUntil, end) - clock.nanos); markMs(); continue; }
      if (core.waiting) { let dt = clock.nanosToNextAlarm; if (dt <= 0 || clock.nanos + dt > end) dt = Math.max(end - clock.nanos, 1); sleepNs += dt; sleep(dt); continue; }
      const h = hooks.get(core.PC);
      if (h && h()) continue;
      if (++n % 997 === 0) hist[core.PC] = (hist[core.PC] || 0) + 1;
      insnPC = core.PC;
      clock.tick(core.executeInstruction() * NS_PER_CYCLE);
      if (fault) stopOnFault();
    }
    markMs();
    return { hist, instructions: n, asleep_ns: sleepNs };
  },
  async frames() { const f = frames; frames = []; curFrame = null; return { frames: f, bus_bytes: busBytes }; },
  async screen() { return { t: clock.nanos, gram: Buffer.from(gram).toString('hex'), on: disp.on, invert: disp.invert }; },
  async flashlog() { const f = flashLog; flashLog = []; return { ops: f }; },
  async heaplog() { const h = heapLog; heapLog = []; return { samples: h, now: liveHeap(), area: heapArea }; },
  async save_flash(a) { fs.writeFileSync(a.path, mcu.flash); return {}; },
  async warnings() { return { warnings }; },
  async state() { return { t: clock.nanos, asleep: asleepShare(), cdc: cdcConnected, last_frame_end: lastFrameEnd }; },
  async serial(a) {
    // bytes to the board's USB serial, then run until `until` shows in what it sends back
    toSerial(Buffer.from(a.send || '', 'latin1'));
    const until = a.until ? Buffer.from(a.until, 'latin1') : null;
    const found = () => until && Buffer.from(serialOut).includes(until);
    await runUntil(clock.nanos + (a.max_ms || 5000) * 1e6, found);
    const s = Buffer.from(serialOut).toString('latin1');
    serialOut = [];
    return { t: clock.nanos, text: s, found: !!found() };
  },
  async pty(a) {
    // bridge the USB serial port to a pseudo-terminal at a.path and run free until `stop`
    await runUntil(clock.nanos + 60000e6, () => cdcConnected);
    pty = spawn('socat', ['-d', '-d', `PTY,link=${a.path},rawer`, 'STDIO'], { stdio: ['pipe', 'pipe', 'pipe'] });
    pty.stdout.on('data', (b) => toSerial(b));
    let ready = false;
    pty.stderr.on('data', (b) => { if (b.toString().includes('starting data transfer')) ready = true; });
    while (!ready && !fs.existsSync(a.path)) await new Promise((r) => setTimeout(r, 20));
    freeRun = true;
    yieldEvery = 1;
    send({ ok: true, pty: a.path, t: clock.nanos });
    // the event loop served every emulated millisecond (stdin, the pty); waiting for the
    // host, the board's time runs ahead of the wall clock (a faster host, as it sees it)
    const t0 = clock.nanos;
    while (freeRun) {
      await runUntil(clock.nanos + 1e6);
      await new Promise((r) => setImmediate(r));
    }
    const emulatedMs = (clock.nanos - t0) / 1e6;
    yieldEvery = 0;
    pty.kill();
    pty = null;
    return { t: clock.nanos, emulated_ms: emulatedMs };
  },
};
let freeRun = false;

const rl = readline.createInterface({ input: process.stdin });
const queue = [];
let busy = false;
rl.on('line', (line) => {
  const a = JSON.parse(line);
  if (a.cmd === 'stop') { freeRun = false; return; }
  queue.push(a);
  pump();
});
rl.on('close', () => { if (!busy && !queue.length) process.exit(0); queue.push({ cmd: 'quit' }); pump(); });
async function pump() {
  if (busy) return;
  busy = true;
  while (queue.length) {
    const a = queue.shift();
    if (a.cmd === 'quit') process.exit(0);
    try {
      const r = await commands[a.cmd](a);
      send({ ok: true, ...r });
    } catch (e) {
      // a chip fault ends this board: every later command answers with the same fault
      if (e instanceof ChipFault) send({ ok: false, error: e.message, fault: e.fault, warnings });
      else send({ ok: false, error: String(e && e.stack || e) });
    }
  }
  busy = false;
}
