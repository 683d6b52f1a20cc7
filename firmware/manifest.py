# Freeze the device code into a custom MicroPython firmware (code in flash: no RAM spent
# loading it, nothing to copy). From a MicroPython checkout, for example:
#   cd ports/rp2 && make BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/repo/firmware/manifest.py
#   cd ports/esp32 && make BOARD=ESP32_GENERIC FROZEN_MANIFEST=/path/to/repo/firmware/manifest.py
# Then flash that firmware and give the board its one-line /main.py:
#   python tools/deploy.py --main-only --port /dev/ttyACM0
# Paths are relative to this file. `site` is where pip put the display driver: the repo's
# venv by default; include this manifest with site="..." to use another.
metadata(description="Phase 10 table device: score pad, Twist board and dice roller", version="0.1.0")
options.defaults(site="../.venv/lib/python3.11/site-packages")

# the port's own frozen modules (asyncio, neopixel, ...) stay in
include("$(PORT_DIR)/boards/manifest.py")

package("firmware", base_path="..", opt=3)
package("engine_mpy", base_path="..", opt=3)

# The maintained SSD1306 driver and the bus_device modules it imports.
module("adafruit_ssd1306.py", base_path=options.site, opt=3)
package("adafruit_bus_device", files=("__init__.py", "i2c_device.py", "spi_device.py"), base_path=options.site, opt=3)
