# Window front end: the panel drawn like the real OLED (light pixels on black, dimmer when
# the app dims it, dark when it is off), keys held for as long as they are held on the PC
# keyboard, so long presses and auto-repeat behave as on the device. pygame is optional
# and imported only here.
import os
import sys

from host_sim import hostio, live_view, script

_SCALE = 5
_PAD = 20
# SDL's video drivers that draw nowhere: with no display SDL falls back to one of them
# on its own, and the window would run unseen until killed.
_NOWHERE = ("offscreen", "dummy", "evdev")


def no_display(pygame):
    """Why no window can be seen (None when one can): SDL found no display, or chose a
    driver that draws nowhere without being asked to."""
    try:
        pygame.display.init()
        driver = pygame.display.get_driver()
    except pygame.error as e:
        return "SDL found none (%s)" % (e,)
    if driver in _NOWHERE and os.environ.get("SDL_VIDEODRIVER") != driver:
        pygame.display.quit()
        return "SDL found none (only its %r driver, which draws nowhere)" % driver
    return None


def run(o, steps):
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")   # its banner is not ours
    try:
        import pygame
    except ImportError:
        sys.stderr.write("host_sim: the window needs pygame, which is not installed by "
                         "default: .venv/bin/pip install pygame (or use the terminal view, "
                         "python -m host_sim)\n")
        return 2
    why = no_display(pygame)
    if why:
        sys.stderr.write("host_sim: --window needs a display, and %s: run it on a desktop "
                         "session, or use the terminal view (python -m host_sim)\n" % why)
        return 2
    state = o["state"] or os.path.join(os.getcwd(), "state")
    why = hostio.make_folder(state, "--state")
    if why:
        sys.stderr.write("host_sim: %s\n" % why)
        return 2
    dev = script.Device(board=o["board"], state=state, mem_free=o["mem_free"],
                        bounce=o["bounce"], panel=o["panel"])
    live_view.serve_phones(dev, o)
    dev.play(steps)
    w, h = 128 * _SCALE + 2 * _PAD, 64 * _SCALE + 2 * _PAD
    screen = pygame.display.set_mode((w, h))
    pygame.display.set_caption("Phase 10 table (simulator): arrows, Enter = OK (hold = back)")
    keymap = {pygame.K_UP: 1, pygame.K_DOWN: 2, pygame.K_LEFT: 4, pygame.K_RIGHT: 8,
              pygame.K_RETURN: 16, pygame.K_SPACE: 16}
    held = 0
    clock = pygame.time.Clock()
    live = live_view.Live(dev, lambda: pygame.event.peek((pygame.KEYDOWN, pygame.KEYUP, pygame.QUIT)))
    running = True
    while running:
        for ev in pygame.event.get():
            if ev.type == pygame.QUIT:
                running = False
            elif ev.type == pygame.KEYDOWN:
                if ev.key in (pygame.K_q,):
                    running = False
                elif ev.key == pygame.K_ESCAPE:
                    dev.play(script.parse("LONG_OK"))
                held |= keymap.get(ev.key, 0)
            elif ev.type == pygame.KEYUP:
                held &= ~keymap.get(ev.key, 0)
        dev.set_bits(held)
        clock.tick(60)
        live.run()
        rows = dev.rows()
        level = 90 if dev.app.asleep == 1 else 255
        screen.fill((0, 0, 0))
        pygame.draw.rect(screen, (25, 25, 30), (_PAD - 6, _PAD - 6, 128 * _SCALE + 12, 64 * _SCALE + 12))
        col = (level * 200 // 255, level * 230 // 255, level)
        for y in range(64):
            r = rows[y]
            for x in range(128):
                if r[x] == "#":
                    screen.fill(col, (_PAD + x * _SCALE, _PAD + y * _SCALE, _SCALE - 1, _SCALE - 1))
        pygame.display.flip()
    pygame.quit()
    return 0
