# Reading a save (engine_mpy/savefile.py has the format and the writer): the shape is
# checked, then every record is replayed through the game's rules, so a file that is
# malformed or tells an impossible story is refused whole, never half-loaded. A module of its
# own because the device reads a save only at start: it is dropped from RAM after that.
import json

from engine_mpy.game import SAVE_FORMAT, SAVE_VERSION, RuleError
from engine_mpy.savefile import SaveError, game_class


def from_dict(d):
    if not isinstance(d, dict):
        raise SaveError("not a Phase 10 save (expected a JSON object)")
    if d.get("format") != SAVE_FORMAT:
        raise SaveError("not a Phase 10 save (no \"format\": \"phase10\")")
    v = d.get("v")
    if not isinstance(v, int) or isinstance(v, bool) or v < 1:
        raise SaveError("save version missing or invalid")
    if v > SAVE_VERSION:
        raise SaveError("save version %d is newer than this firmware reads (%d)" % (v, SAVE_VERSION))
    cls = game_class(d.get("game"))
    settings = d.get("settings")
    records = d.get("records")
    if not isinstance(settings, dict):
        raise SaveError("settings missing or not an object")
    if not isinstance(records, list):
        raise SaveError("records missing or not a list")
    try:
        # each parsed record is dropped as it is replayed (Game.replay's consume)
        return cls(settings, records, True)
    except RuleError as e:
        if e.hand:
            raise SaveError("hand %d: %s" % (e.hand, e.args[0]))
        raise SaveError("settings: %s" % e.args[0])
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
        raise SaveError("settings are malformed (%s)" % type(e).__name__)


def loads(text):
    try:
        d = json.loads(text)
    except ValueError:
        raise SaveError("not valid JSON (the file is damaged or truncated)")
    except RuntimeError:  # RecursionError (CPython): nested deeper than any save is
        raise SaveError("not a Phase 10 save (nested too deep)")
    return from_dict(d)
