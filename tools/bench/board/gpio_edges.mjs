// rp2040js (1.3.3) latches EDGE_HIGH / EDGE_LOW on every GPIOPin.setInputValue, also when
// the level stays as it was (a pad set-up re-reads it, a caller writes every pin). The
// RP2040 latches an edge only on a transition of the input (datasheet 2.19, INTR0: the
// edge bits are latched until written with 1): so it is after this, which the firmware's
// pin interrupts, catching taps made while the flash is written, rely on.
export function latchEdgesOnChangeOnly(GPIOPin) {
  const setInput = GPIOPin.prototype.setInputValue;
  if (setInput.edgesOnChange) return;
  const patched = function (value) {
    const was = this.inputValue, edges = this.irqStatus & 0xc, irq = this.irqValue;
    setInput.call(this, value);
    if (this.inputValue === was) {
      this.irqStatus = (this.irqStatus & ~0xc) | edges;
      if (this.irqValue !== irq) this.rp2040.updateIOInterrupt();
    }
  };
  patched.edgesOnChange = true;
  GPIOPin.prototype.setInputValue = patched;
}
