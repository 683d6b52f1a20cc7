# Raspberry Pi Pico W (RP2040 + CYW43 wireless). A pin map: the same header as the Pico,
# and none of the pins below is taken by the wireless chip (it uses GP23, GP24, GP25, GP29
# internally), so a Pico W drops into a Pico build unchanged.
# Its image (make firmware BOARD=pico_w): as the Pico's, the drawing's machine code (ARMv6-M)
# loaded into RAM at start from the .mpy bytes it carries (firmware/draw/codeload.py).
#
#   what              Pico W pin (physical)  GPIO
#   OLED VCC          36  3V3(OUT)           -
#   OLED GND          38  GND                -
#   OLED SDA           6                     GP4  (I2C0 SDA)
#   OLED SCL           7                     GP5  (I2C0 SCL)
#   button UP         21                     GP16
#   button DOWN       22                     GP17
#   button LEFT       24                     GP18
#   button RIGHT      25                     GP19
#   button OK         26                     GP20
#   buttons' common   23 or 28  GND          -
NAME = "Raspberry Pi Pico W"
MCU = "RP2040"
I2C_ID = 0
SDA = 4
SCL = 5
I2C_FREQ = 400_000
# up, down, left, right, ok
BUTTONS = (16, 17, 18, 19, 20)
# the timer that samples the buttons every 5 ms: RP2040: virtual timers only (id -1), run as soft callbacks
TIMER_ID = -1
# the CYW43 Wi-Fi chip: the table on phones (firmware/phones/net.py)
WIFI = "cyw43"
