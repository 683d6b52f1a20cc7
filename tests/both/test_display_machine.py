# The fake machine module's pins and bus, as the firmware and the simulator use them.
import sys

import host_sim

_twin = host_sim.__file__.rsplit("/", 1)[0] + "/twin"
if _twin not in sys.path:
    sys.path.insert(0, _twin)

import machine  # noqa: E402  (the fake, from host_sim/twin)

from check import raises  # noqa: E402


def test_button_pins_read_like_pull_up_wiring():
    machine.reset_world()
    p = machine.Pin(14, machine.Pin.IN, machine.Pin.PULL_UP)
    assert p.value() == 1                     # released: the pull-up holds it high
    machine.keys.press(14)
    assert p.value() == 0 and p() == 0        # pressed: shorted to ground
    machine.keys.release(14)
    assert p.value() == 1
    q = machine.Pin(15, machine.Pin.IN)       # no pull-up: a floating input reads 0 here
    assert q.value() == 0


def test_contact_bounce_chatters_then_settles():
    machine.reset_world()
    machine.keys.bounce = 3
    p = machine.Pin(2, machine.Pin.IN, machine.Pin.PULL_UP)
    machine.keys.press(2)
    reads = [p.value() for _ in range(6)]
    # three reads of chatter (old, new, old level), then steady pressed
    assert reads == [1, 0, 1, 0, 0, 0]
    machine.keys.release(2)
    assert [p.value() for _ in range(5)] == [0, 1, 0, 1, 1]


def test_output_pins_hold_their_value():
    p = machine.Pin(25, machine.Pin.OUT, value=1)
    assert p.value() == 1
    p.off()
    assert p.value() == 0
    p.value(1)
    assert p.value() == 1


def test_i2c_counts_address_and_payload_and_bus_time():
    machine.reset_world()
    i2c = machine.I2C(0, scl=machine.Pin(5), sda=machine.Pin(4), freq=100000)
    assert i2c.scan() == [0x3C]
    assert i2c.writeto(0x3C, b"\x80\xaf") == 2
    assert i2c.bytes == 3 and i2c.clocks == 27
    assert i2c.bus_us == 270                  # 27 clocks at 100 kHz
    assert machine.panel().on
    assert i2c.readfrom(0x3C, 1) == b"\x00"   # status: display on
    i2c.writevto(0x3C, (b"\x00", b"\xae"))    # one transaction from two buffers
    assert not machine.panel().on and i2c.bytes == 3 + 2 + 3


def test_missing_device_raises_enodev_and_is_logged():
    machine.reset_world()
    i2c = machine.I2C(1)
    assert raises(OSError, i2c.writeto, 0x27, b"\x00").args[0] == 19
    assert raises(OSError, i2c.readfrom, 0x27, 1).args[0] == 19
    assert [a for a, _ in machine.bus.errors] == [0x27, 0x27]
    machine.bus.detach(0x3C)
    assert i2c.scan() == []
