// The firmware's live heap on a 32-bit MicroPython: the WebAssembly port from the npm
// registry (@micropython/micropython-webassembly-pyscript, wasm32: objects the size they
// are on a board). Its heap grows on demand, so what it gives is the live heap after a
// collection at every poll (tools/bench/heap_live.py), not a smallest cap.
//   node tools/bench/heap32/heap32.mjs BUILD STATE KEYS_FILE [SCREEN [ARG_JSON]]
// BUILD: a `make mpy` folder (its runner/ holds twin_play and the wire machine). The state
// folder and the keys are copied into the VM's own files; prints heap_live's line.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "fs";
import path from "path";

const [build, state, keys, screen, arg] = process.argv.slice(2);
let out = "";
const mp = await loadMicroPython({ heapsize: 128 * 1024, stdout: (l) => { out += l + "\n"; },
                                   stderr: (l) => process.stderr.write(l + "\n") });

function copyTree(src, dst) {
  mp.FS.mkdirTree(dst);
  for (const e of fs.readdirSync(src, { withFileTypes: true })) {
    const s = path.join(src, e.name);
    if (e.isDirectory()) copyTree(s, dst + "/" + e.name);
    else mp.FS.writeFile(dst + "/" + e.name, fs.readFileSync(s));
  }
}
copyTree(build, "/b");
copyTree(state, "/state");
mp.FS.writeFile("/keys.txt", fs.readFileSync(keys));
mp.FS.writeFile("/b/runner/heap_live.py", fs.readFileSync(new URL("../heap_live.py", import.meta.url)));
const args = ["/state", "/keys.txt"].concat(screen ? [screen, arg || "null"] : []);
try {
  mp.runPython(`
import sys, os
sys.path[:0] = ["/b/runner", "/b", "/b/lib"]
os.chdir("/")
import heap_live
heap_live.start(${JSON.stringify(args)})
`);
  // a key per call: this port collects garbage only between calls from JavaScript
  mp.runPython("heap_live.measure()");
  for (;;) {
    mp.runPython("_more = heap_live.step()");
    if (!mp.globals.get("_more")) break;
    mp.runPython("heap_live.measure()");
  }
  mp.runPython("heap_live.report()");
} catch (e) {
  process.stderr.write(String(e) + "\n");
  process.exit(1);
}
process.stdout.write(out);
