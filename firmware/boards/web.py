# The device in a web browser: MicroPython's WebAssembly port running this same firmware in
# a page (web/: `make web`). The page is the board: its five buttons (and the keyboard's
# arrows, Enter and Escape) are the button pins, its canvas is the SSD1306 at 0x3C on the
# bus, and the browser's storage is the flash (web/device.mjs keeps every file the device
# writes). The page's own `machine` module (web/machine.py) gives these pins and the bus.
#
# Not a physical board: firmware/edges/board.py's detect() never picks it; web/webdevice.py
# gives it to firmware/main.py's build() by name.
#
#   what            page                        "GPIO"
#   OLED            the canvas (I2C bus 0)      -
#   button UP       ▲ / ArrowUp                 0
#   button DOWN     ▼ / ArrowDown               1
#   button LEFT     ◀ / ArrowLeft, Escape       2
#   button RIGHT    ▶ / ArrowRight              3
#   button OK       OK / Enter, Space           4
NAME = "Web browser"
MCU = "WebAssembly"
I2C_ID = 0
SDA = 0
SCL = 1
I2C_FREQ = 400_000
# up, down, left, right, ok
BUTTONS = (0, 1, 2, 3, 4)
# No timer: the page steps the app from its own event loop, right after every button
# change, so the loop samples the pins itself (firmware/edges/buttons.py Sampler.poll)
TIMER_ID = None
# No radio: the table on phones is for the boards with Wi-Fi
WIFI = None
# The page's panel is an SSD1306 (web/ssd1306.mjs decodes its bus): the panel's controller
# is no setting here (Settings has no SH1106 line; a settings.json loaded from a board with
# one set changes nothing)
PANEL = "ssd1306"
