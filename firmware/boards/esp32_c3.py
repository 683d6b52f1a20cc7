# ESP32-C3 (DevKitM-1, and the small "SuperMini" boards with the same GPIO numbers).
# A pin map (64 KB heap at start; littlefs on flash). The C3 has one I2C controller and
# routes it to any pin.
# Its image (make firmware BOARD=esp32_c3): the drawing's machine code (RV32IMC) rides as a
# .mpy's bytes and is loaded into RAM at start, never frozen on a halfword (the C3 reads code
# through its instruction bus in words: firmware/draw/codeload.py); make firmware checks the image.
#
#   what              GPIO
#   OLED VCC          3V3
#   OLED GND          GND
#   OLED SDA          GPIO5
#   OLED SCL          GPIO6
#   button UP         GPIO0
#   button DOWN       GPIO1
#   button LEFT       GPIO3
#   button RIGHT      GPIO4
#   button OK         GPIO10
#   buttons' common   GND
#
# Avoided: strapping pins 2, 8 and 9 (8 also drives the DevKitM-1's RGB LED, 9 is its
# BOOT button), 18/19 (USB) and 20/21 (the UART console).
NAME = "ESP32-C3"
MCU = "ESP32-C3"
I2C_ID = 0
SDA = 5
SCL = 6
I2C_FREQ = 400_000
# up, down, left, right, ok
BUTTONS = (0, 1, 3, 4, 10)
# the timer that samples the buttons every 5 ms: hardware timer 0 of 2, its callback scheduled (soft)
TIMER_ID = 0
# Wi-Fi on the chip: the table on phones (firmware/phones/net.py)
WIFI = "esp32"
