# ESP32 DevKitC (ESP32-WROOM-32, 38-pin board). First class: 56 KB of heap at start,
# growing to about 110 KB; littlefs on flash.
# Its image (make firmware BOARD=esp32): the drawing's machine code (Xtensa) frozen in the
# flash, on a word as MicroPython's tools put Xtensa code; make firmware checks the linked image.
#
# Wiring (every button between its GPIO and GND; the internal pull-ups do the rest):
#
#   what              DevKitC header        GPIO
#   OLED VCC          J2-1   3V3            -
#   OLED GND          J3-1   GND            -
#   OLED SDA          J3-6                  GPIO21
#   OLED SCL          J3-3                  GPIO22
#   button UP         J2-7                  GPIO32
#   button DOWN       J2-8                  GPIO33
#   button LEFT       J2-9                  GPIO25
#   button RIGHT      J2-10                 GPIO26
#   button OK         J2-11                 GPIO27
#   buttons' common   J2-14  GND            -
#
# Why these: 21/22 are the usual I2C pins of ESP32 boards. The buttons avoid the strapping
# pins (0, 2, 5, 12, 15: a button held at power-on would change how the chip boots) and
# 34-39, which are inputs without internal pull-ups; 32, 33, 25, 26, 27 are neighbours
# on the left header.
NAME = "ESP32 DevKitC"
MCU = "ESP32"
I2C_ID = 0
SDA = 21
SCL = 22
I2C_FREQ = 400_000
# up, down, left, right, ok
BUTTONS = (32, 33, 25, 26, 27)
# the timer that samples the buttons every 5 ms: hardware timer 0 of 4, its callback scheduled (soft)
TIMER_ID = 0
# Wi-Fi on the chip: the table on phones (firmware/phones/net.py)
WIFI = "esp32"
