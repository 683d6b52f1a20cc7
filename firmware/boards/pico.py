# Raspberry Pi Pico (RP2040). First class: about 210 KB of free heap, littlefs on flash.
# Its image (make firmware BOARD=pico): the drawing's machine code (ARMv6-M) rides as a .mpy's
# bytes and is loaded into RAM at start, never frozen where it could start on a halfword (the
# Cortex-M0+ faults there: firmware/draw/codeload.py); make firmware checks the linked image.
#
# Wiring (every button between its GPIO and GND; the internal pull-ups do the rest):
#
#   what              Pico pin (physical)   GPIO
#   OLED VCC          36  3V3(OUT)          -
#   OLED GND          38  GND               -
#   OLED SDA           6                    GP4  (I2C0 SDA)
#   OLED SCL           7                    GP5  (I2C0 SCL)
#   button UP         21                    GP16
#   button DOWN       22                    GP17
#   button LEFT       24                    GP18
#   button RIGHT      25                    GP19
#   button OK         26                    GP20
#   buttons' common   23 or 28  GND         -
#
# The five buttons sit on consecutive header pins 21-26 with a GND (23) among them, so a
# strip of wire or a ribbon cable reaches all of them.
NAME = "Raspberry Pi Pico"
MCU = "RP2040"
I2C_ID = 0
SDA = 4
SCL = 5
I2C_FREQ = 400_000  # the SSD1306's rated maximum: a full frame in about 24 ms
# up, down, left, right, ok
BUTTONS = (16, 17, 18, 19, 20)
# the timer that samples the buttons every 5 ms: RP2040: virtual timers only (id -1), run as soft callbacks
TIMER_ID = -1
# no Wi-Fi chip: no table on phones
WIFI = None
