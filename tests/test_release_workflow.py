# .github/workflows/release.yml (the public repository's release images): it parses, builds
# one image per board of the device with `make firmware` from the MicroPython release that
# tools/build/firmware_image.py supports, and attaches every image to the tag's release.
import os
import re
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "tools", d) for d in ("bench", "build", "checks", "gen")]
import firmware_image as fi  # noqa: E402

WORKFLOW = os.path.join(ROOT, ".github", "workflows", "release.yml")


def load():
    with open(WORKFLOW) as f:
        return yaml.safe_load(f)


def steps_text(job):
    return "\n".join(str(s.get("run", "")) for s in job["steps"])


def test_it_runs_on_a_version_tag():
    wf = load()
    on = wf.get("on", wf.get(True))   # YAML 1.1 reads the key `on` as true
    assert on["push"]["tags"] == ["v*"]
    assert wf["permissions"] == {"contents": "read"}


def test_one_image_per_board_with_make_firmware():
    wf = load()
    job = wf["jobs"]["image"]
    matrix = job["strategy"]["matrix"]["include"]
    assert sorted(m["board"] for m in matrix) == sorted(fi.BOARDS)
    for m in matrix:
        assert m["port"] == fi.BOARDS[m["board"]][0]
    runs = steps_text(job)
    assert runs.count("make firmware BOARD=${{ matrix.board }} MPY_DIR=") == 2   # rp2 and esp32 steps
    ports = {s.get("if") for s in job["steps"] if "make firmware" in str(s.get("run", ""))}
    assert ports == {"matrix.port == 'rp2'", "matrix.port == 'esp32'"}
    assert "gcc-arm-none-eabi" in runs and "espressif/idf:$idf" in runs
    assert "tools/build/firmware_image.py --idf-version" in runs
    # the MicroPython release is the one the tool supports
    assert wf["env"]["MICROPYTHON_VERSION"] == "v%d.%d.%d" % fi.SUPPORTED
    mp = [s for s in job["steps"] if s.get("with", {}).get("repository") == "micropython/micropython"]
    assert len(mp) == 1 and mp[0]["with"]["ref"] == "${{ env.MICROPYTHON_VERSION }}"
    up = [s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/upload-artifact@")]
    assert up[0]["with"]["path"] == "build/firmware/phase10-${{ matrix.board }}.*"
    for b in fi.BOARDS:   # the name the tool gives each image matches that path
        assert re.fullmatch(r"phase10-%s\.[a-z0-9]+" % b, fi.image_name(b))


def test_the_release_gets_every_image():
    wf = load()
    rel = wf["jobs"]["release"]
    assert rel["needs"] == "image" and rel["permissions"] == {"contents": "write"}
    assert rel["if"] == "startsWith(github.ref, 'refs/tags/')"
    dl = [s for s in rel["steps"] if str(s.get("uses", "")).startswith("actions/download-artifact@")]
    assert dl[0]["with"]["pattern"] == "image-*" and dl[0]["with"]["merge-multiple"] is True
    assert 'gh release upload "$GITHUB_REF_NAME" images/*' in steps_text(rel)


def test_every_action_is_pinned_to_an_exact_version():
    wf = load()
    uses = [s["uses"] for job in wf["jobs"].values() for s in job["steps"] if "uses" in s]
    assert len(uses) >= 4
    for u in uses:
        assert re.fullmatch(r"[\w.-]+/[\w.-]+@(v\d+\.\d+\.\d+|[0-9a-f]{40})", u), u


def test_the_pico_and_pico_w_images_are_started_to_their_first_frame_before_release():
    # issue 39: an image that faults on a real RP2040 (an unaligned read) must not be released:
    # each rp2 image (the Pico's and, since issue 50, the Pico W's) runs in the emulated chip,
    # with its errors on, to the main menu
    wf = load()
    job = wf["jobs"]["image"]
    steps = job["steps"]
    names = [s.get("name", "") for s in steps]
    build = names.index("Build the image (rp2)")
    start = [i for i, s in enumerate(steps) if "make first-frame" in s.get("run", "")]
    assert len(start) == 1 and start[0] > build
    step = steps[start[0]]
    assert step["if"] == steps[build]["if"] == "matrix.port == 'rp2'"
    assert "FIRST_FRAME=build/firmware/phase10-${{ matrix.board }}.uf2" in step["run"]
    rp2 = [b["board"] for b in job["strategy"]["matrix"]["include"] if b["port"] == "rp2"]
    assert sorted(rp2) == ["pico", "pico_w"]
    with open(os.path.join(ROOT, "Makefile")) as f:
        mk = f.read()
    assert "first-frame: $(STAMP) $(BOARD_JS)" in mk and "$(addprefix --first-frame ,$(FIRST_FRAME))" in mk
    assert "FIRST_FRAME ?= build/firmware/phase10-pico.uf2 build/firmware/phase10-pico_w.uf2" in mk


def test_a_release_publishes_the_device_in_the_browser():
    # issue 40: make web's site goes to GitHub Pages with each version tag
    wf = load()
    web = wf["jobs"]["web"]
    runs = steps_text(web)
    assert "make web" in runs
    up = [s for s in web["steps"] if s.get("uses", "").startswith("actions/upload-pages-artifact@")]
    assert len(up) == 1 and up[0]["with"]["path"] == "build/web"
    pages = wf["jobs"]["pages"]
    assert pages["needs"] == "web" and pages["if"] == "startsWith(github.ref, 'refs/tags/')"
    assert pages["permissions"] == {"pages": "write", "id-token": "write"}
    assert [s["uses"].split("@")[0] for s in pages["steps"]] == ["actions/deploy-pages"]
    with open(os.path.join(ROOT, "Makefile")) as f:
        assert "\nweb: $(STAMP) $(HEAP32)\n\t$(PY) tools/build/web_build.py build/web" in f.read()
