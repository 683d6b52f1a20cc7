# docs/rules.md is the project's statement of every rule the device follows. Each refusal
# the engine can give (every RuleError message in engine_mpy/*.py, read from the source with
# ast) must be covered by COVER below, and the rule it enforces must be named in the doc: a
# rule added to the engine without a line in the doc fails here. The doc's tables are
# compared with the engine's own data, and the doc may not point outside the repository.
import ast
import os
import re

from engine_mpy.phases import PHASE_TEXT, PHASE_CARDS, DECK_COUNTS, MASTERS_DECK
from engine_mpy.twist_cards import TWIST_TEXT, TWIST_CARDS
from engine_mpy.dice_eval import DICE_TABLE, COLOURS, COLOUR_NAMES
from engine_mpy.board_layout import DEFAULT_LAYOUT, MAX_SPACES, MAX_FILE

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGINE = os.path.join(ROOT, "engine_mpy")
DOC = os.path.join(ROOT, "docs", "rules.md")

# A fragment of an engine message (it must lie within one literal piece of the message: the
# text between its % fields) -> the phrases of docs/rules.md that name the rule it enforces.
# Every phrase of every fragment a message contains must be in the doc.
COVER = (
    # --- every card game: the hand -----------------------------------------------------
    ("Say who went out: exactly one player ends each hand.", ("exactly one player goes out",)),
    ("Enter the cards left for every player.", ("there are cards left for every player",)),
    ("Enter the cards ", ("there are cards left for every player",)),
    (" went out, so has no cards left.", ("the player who went out has no cards left",)),
    (" has no cards left.", ("the player who went out has no cards left",)),
    ("only the player who went out can have none", ("only the player who went out can have no cards left",)),
    ("only the player who went out has no cards left", ("only the player who went out can have no cards left",)),
    ("cards left must be four counts", ("four counts, each count a whole number, 0 or more",)),
    (" cards must be a whole number, 0 or more.", ("four counts, each count a whole number, 0 or more",)),
    ("a hand holds 10 between turns", ("never more than 10 cards",)),
    ("a player who did not complete ", ("holds exactly 10 cards", "from 1 to 10 minus the cards laid down")),
    (" has only ", ("no player holds more cards of a kind than the deck has",)),
    ("This hand lists ", ("all the hands together cannot list more of a kind than the deck has",)),
    ("points must be a whole number, 0 or more", ("points are a whole number, 0 or more",)),
    ("is not a multiple of 5", ("a multiple of 5",)),
    ("points cannot be the cards left", ("a total that neither can make is refused",)),
    ("the cards left say ", ("the count decides",)),
    ("cards' worth, so ", ("under 50 points means completed",)),
    (" cards can hold, so ", ("more than a completed hand can hold means not completed",)),
    ("points fits both; say whether", ("the points fit both",)),
    ("completed must be yes or no", ("yes or no",)),
    ("the phase entered says ", ("the phase named decides",)),
    # --- Phase 10: end, tie-break, variations ------------------------------------------
    ("is due: record who went out first in it", ("nothing else can be entered until it is answered",)),
    ("No tie-break hand is due.", ("a tie-break can be recorded only when one is due",)),
    (": one of them went out first.", ("the answer must be one of the tied players",)),
    ("The game is over: ", ("no more hands can be entered",)),
    ("Unknown variation ", ("one of four ways, chosen at setup",)),
    (" must be a whole number from ", ("any player can be the first dealer", "n from 1 to 10")),
    # --- Masters Edition ----------------------------------------------------------------
    ("Masters: enter the phase each player completed", ("which phase each player completed, or none (0)",)),
    ("a phase is a number from 1 to 10 (0 for none)", ("which phase each player completed, or none (0)",)),
    ("a completed phase is never attempted again", ("a completed phase is never attempted again",)),
    (", so completed a phase: say which.", ("must say which phase they completed",)),
    (" holds 10 cards, so did not complete phase ", ("a player holding 10 cards did not complete the phase they named",)),
    # --- Twist: the hand ----------------------------------------------------------------
    ("All ten Twist cards are taken this hand.", ("one of each twist card",)),
    ("; there is one of each.", ("one of each twist card",)),
    ("the choice is \"before\", \"after\" or a Twist card", ("the phase before it, the phase after it, or a twist card",)),
    ("is on a Twist space: choose", ("must choose before the hand",)),
    ("is not on a Twist space, so has no choice", ("only a player on a twist space chooses",)),
    ("enter the number of cards left", ("the number of cards left",)),
    (" went out: no cards left to count.", ("there is nothing to count for the player who went out",)),
    (" cards left cannot be worth ", ("must be a value that many cards can have",)),
    ("moved past the red space with others", ("the device asks for the value of their cards left",)),
    ("Card values must be", ("face values", "the phase 10 card values")),
    # --- Twist: the board layout --------------------------------------------------------
    ("A layout is a list of space codes.", ("space codes",)),
    ("The layout is empty", ("it runs from 1s to 10r",)),
    ("a board has at most ", ("at most %d spaces" % MAX_SPACES,)),
    ("is not a space code", ("the codes are 1s (the start), 1 to 9",)),
    ("a board starts on a phase-1 space", ("starts on a phase-1 space",)),
    ("1S (the start) can only be the first space", ("1s appears only as the first space",)),
    ("must be the last space", ("ends on the red phase 10 space, which appears only there",)),
    ("a board ends on the red Phase 10 space", ("ends on the red phase 10 space, which appears only there",)),
    ("a Twist space needs a numbered space on each side", ("every twist space has a numbered space on each side",)),
    ("A layout is text.", ("plain text (utf-8)",)),
    ("is not plain text (UTF-8)", ("plain text (utf-8)",)),
    ("a layout is a few lines", ("at most %d bytes" % MAX_FILE,)),
    # --- Dice ---------------------------------------------------------------------------
    ("entered from real dice; there is nothing to roll", ("entered from a real roll are not rolled again",)),
    ("A turn has at most three rolls.", ("a turn has at most three rolls",)),
    ("Dice can be held only between", ("dice are held only between rolls",)),
    ("There is no die ", ("ten dice: four low dice",)),
    ("Roll the dice first.", ("a turn is saved only after at least one roll",)),
    ("The turn order must list every player once.", ("the turn order lists every player once",)),
    ("'s turn, not ", ("a turn out of turn order is refused",)),
    ("no more turns can be played", ("no more turns can be played",)),
    (" is not a die: write its number (1-10) or W", ("its colour letter (r, o, b or g)",)),
    ("Ten dice are needed", ("all ten results",)),
    ("The set has 4 low dice (1-4 and W) and 6 high dice", ("four low (1-4 or w) and six high (5-10)",)),
    ("No die has a ", ("no face that no die of the set has",)),
    ("The real dice cannot show ", ("cannot show together",)),
    (" rolls are needed.", ("each player rolls one high die", "players who tie roll again among themselves")),
    ("A high die shows 5 to 10.", ("high die (faces 5 to 10)",)),
    # --- every game: players, undo, corrections -----------------------------------------
    ("This game takes ", ("2 to 6 players", "1 to 8 players")),
    ("Every player needs a name.", ("every player needs a name",)),
    (" is longer than 12 characters.", ("at most 12 characters",)),
    ("Two players are called ", ("two players cannot share a name",)),
    ("A player's name holds half of a character (U+", ("no half of one",)),
    ("There is nothing to undo.", ("there is nothing to undo",)),
    ("There is no hand ", ("only a hand already entered can be corrected",)),
    ("That change makes hand ", ("would make a later hand impossible",)),
    # --- a saved game not in the device's own form --------------------------------------
    ("settings must be an object", ("not in the form the device writes",)),
    ("a hand must be an object", ("not in the form the device writes",)),
    ("completed flags must list every player", ("not in the form the device writes",)),
    ("Twist choices must list every player.", ("not in the form the device writes",)),
    ("Card totals must list every player.", ("not in the form the device writes",)),
    ("record is malformed", ("not in the form the device writes",)),
    ("There is no player ", ("an unknown player or die face",)),
    ("A turn needs the faces of all ten dice.", ("not in the form the device writes",)),
    ("A die has faces 0 to 5", ("an unknown player or die face",)),
    ("A turn is rolled or entered", ("not in the form the device writes",)),
)

# A % field: %s, %d, %r, %5.2f, %% ...
_FIELD = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[diouxXeEfFgGcrsa%]")


def _norm(text):
    """Lower case, markdown emphasis and code marks dropped, all white space one blank: a
    phrase is found however the doc's lines wrap."""
    return " ".join(text.replace("*", "").replace("`", "").lower().split())


def _doc():
    with open(DOC, encoding="utf-8") as f:
        return f.read()


def _parents(tree):
    up = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            up[child] = node
    return up


def _enclosing(node, up, kinds):
    while node in up:
        node = up[node]
        if isinstance(node, kinds):
            return node
    return None


def _pieces(expr, scope):
    """The literal text pieces of a message expression, or None when it cannot be read."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return [p for p in _FIELD.split(expr.value)]
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mod):
        return _pieces(expr.left, scope)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        a, b = _pieces(expr.left, scope), _pieces(expr.right, scope)
        return None if a is None or b is None else a + b
    if isinstance(expr, ast.JoinedStr):
        return [v.value for v in expr.values if isinstance(v, ast.Constant)]
    if isinstance(expr, ast.Name):
        # A message kept in a local name (dice_eval.parse_die's "bad"): its one assignment.
        found = [n.value for n in ast.walk(scope) if isinstance(n, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)]
        if len(found) == 1:
            return _pieces(found[0], scope)
    return None


def _reraise(expr, node, up):
    """True for RuleError(e.args[0], ...) inside `except RuleError as e`: a refusal passed on
    with its hand number, no new message."""
    if not (isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Attribute)
            and expr.value.attr == "args" and isinstance(expr.value.value, ast.Name)):
        return False
    name = expr.value.value.id
    h = _enclosing(node, up, ast.ExceptHandler)
    while h is not None:
        if h.name == name and "RuleError" in ast.unparse(h.type):
            return True
        h = _enclosing(h, up, ast.ExceptHandler)
    return False


def engine_refusals():
    """([(where, message pieces)], [where of unreadable messages], call sites found)."""
    found, unreadable, sites = [], [], 0
    for fn in sorted(os.listdir(ENGINE)):
        if not fn.endswith(".py"):
            continue
        path = os.path.join(ENGINE, fn)
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        up = _parents(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if not ((isinstance(func, ast.Name) and func.id == "RuleError")
                    or (isinstance(func, ast.Attribute) and func.attr == "RuleError")):
                continue
            sites += 1
            where = "engine_mpy/%s:%d" % (fn, node.lineno)
            if not node.args:
                unreadable.append(where)
                continue
            msg = node.args[0]
            if _reraise(msg, node, up):
                continue
            scope = _enclosing(node, up, (ast.FunctionDef, ast.AsyncFunctionDef)) or tree
            pieces = _pieces(msg, scope)
            if pieces is None or not "".join(pieces).strip():
                unreadable.append(where)
            else:
                found.append((where, pieces))
    return found, unreadable, sites


def _matches(fragment, pieces):
    return any(fragment in p for p in pieces)


def test_every_refusal_is_read():
    found, unreadable, sites = engine_refusals()
    assert not unreadable, "RuleError messages this test cannot read (give it a literal text): %s" % unreadable
    # Every call site the source text shows was seen by the parser (none hides behind an
    # alias or a form the walk above misses).
    text = 0
    for fn in os.listdir(ENGINE):
        if fn.endswith(".py"):
            with open(os.path.join(ENGINE, fn), encoding="utf-8") as f:
                src = f.read()
            text += len(re.findall(r"\bRuleError\(", src)) - len(re.findall(r"class RuleError\(", src))
    assert sites == text
    assert found


def test_every_refusal_is_documented():
    doc = _norm(_doc())
    found = engine_refusals()[0]
    uncovered = []
    missing = []
    for where, pieces in found:
        rows = [(frag, phrases) for frag, phrases in COVER if _matches(frag, pieces)]
        if not rows:
            uncovered.append("%s %r" % (where, "...".join(pieces)))
            continue
        for frag, phrases in rows:
            for ph in phrases:
                if _norm(ph) not in doc:
                    missing.append("%s: %r (for %r)" % (where, ph, frag))
    assert not uncovered, (
        "engine refusals with no row in COVER (document the rule in docs/rules.md, then add "
        "the row): %s" % uncovered)
    assert not missing, "rules named in COVER but not in docs/rules.md: %s" % missing


def test_no_stale_rows():
    # A row whose message left the engine would cover nothing: the table must follow it.
    found = engine_refusals()[0]
    stale = [frag for frag, _ in COVER if not any(_matches(frag, pieces) for _, pieces in found)]
    assert not stale, "COVER rows matching no engine message: %s" % stale


def test_doc_stays_in_the_repository():
    doc = _doc()
    for bad in ("../", "..\\", "shared/", "/work/", "file:"):
        assert bad not in doc, "docs/rules.md mentions %r" % bad
    for target in re.findall(r"\]\(([^)\s]+)", doc):
        assert "://" not in target, "docs/rules.md links outside the repository: %s" % target
        path = target.split("#")[0]
        if path:
            full = os.path.normpath(os.path.join(os.path.dirname(DOC), path))
            assert full.startswith(ROOT + os.sep) and os.path.exists(full), target


def _row(*cells):
    return _norm("| " + " | ".join([str(c) for c in cells]) + " |")


def test_doc_tables_are_the_engines():
    doc = _norm(_doc())
    for n in range(1, 11):
        assert _row(n, PHASE_TEXT[n], PHASE_CARDS[n]) in doc, "phase %d" % n
        assert _row(n, TWIST_TEXT[n], TWIST_CARDS[n]) in doc, "Twist card %d" % n
    # Deck rows: the game names, then cards 1-9, 10-12, Skip, Wild.
    assert _norm(" | ".join([str(c) for c in DECK_COUNTS]) + " |") in doc.split("| phase 10 (all variations), twist |")[1]
    assert _norm(" | ".join([str(c) for c in MASTERS_DECK]) + " |") in doc.split("| masters edition |")[1]
    for die, faces in DICE_TABLE:
        words = []
        for face in faces.split():
            words.append("%s %s" % (face[:-1], COLOUR_NAMES[COLOURS.index(face[-1])]))
        assert _row(die, " · ".join(words)) in doc, die
    assert _norm(DEFAULT_LAYOUT) in doc


def test_doc_colour_patterns_are_the_help_screens():
    # The on-device Help draws each dice colour in a pattern: the doc names the same ones.
    path = os.path.join(ROOT, "firmware", "screens", "help.py")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    consts = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if node.targets[0].id in ("_COLOURS", "_PATTERNS"):
                consts[node.targets[0].id] = ast.literal_eval(node.value)
    assert len(consts.get("_COLOURS", ())) == 4 and len(consts.get("_PATTERNS", ())) == 4
    doc = _doc()
    for colour, pattern in zip(consts["_COLOURS"], consts["_PATTERNS"]):
        # (Help keeps its texts as bytes)
        assert "**%s %s**" % (colour.decode(), pattern.decode()) in doc
