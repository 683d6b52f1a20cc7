# ESP32-S3-DevKitC-1. A pin map (64 KB heap at start, grows; littlefs on flash).
# Its image (make firmware BOARD=esp32_s3): as the ESP32's, the machine code (Xtensa) frozen.
#
#   what              DevKitC-1 header      GPIO
#   OLED VCC          J1-1   3V3            -
#   OLED GND          J1-22  GND            -
#   OLED SDA          J1-12                 GPIO8
#   OLED SCL          J1-15                 GPIO9
#   button UP         J1-4                  GPIO4
#   button DOWN       J1-5                  GPIO5
#   button LEFT       J1-6                  GPIO6
#   button RIGHT      J1-7                  GPIO7
#   button OK         J1-8                  GPIO15
#   buttons' common   J1-22 or J3-1  GND    -
#
# Avoided: strapping pins 0, 3, 45, 46; USB 19/20; 26-37 (flash and octal PSRAM on the
# N8R8/N16R8 modules).
NAME = "ESP32-S3 DevKitC-1"
MCU = "ESP32-S3"
I2C_ID = 0
SDA = 8
SCL = 9
I2C_FREQ = 400_000
# up, down, left, right, ok
BUTTONS = (4, 5, 6, 7, 15)
# the timer that samples the buttons every 5 ms: hardware timer 0 of 4, its callback scheduled (soft)
TIMER_ID = 0
# Wi-Fi on the chip: the table on phones (firmware/phones/net.py)
WIFI = "esp32"
