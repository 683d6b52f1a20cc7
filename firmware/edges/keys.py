# Key codes the input layer hands to the screens. UP/DOWN auto-repeat events carry the
# REPEAT flag, so a screen that does not care writes `key & KEY_MASK`; a number stepper
# can take bigger steps when it sees REPEAT.
try:
    from micropython import const
except ImportError:
    const = lambda x: x

NONE = const(0)
UP = const(1)
DOWN = const(2)
LEFT = const(3)
RIGHT = const(4)
OK = const(5)
BACK = const(6)  # a long press of OK
HELP = const(7)  # UP or DOWN pressed while OK is held
REPEAT = const(0x80)
KEY_MASK = const(0x7F)

# Bit of each button in the pressed_bits word that Buttons.update() reads.
BIT_UP = const(1)
BIT_DOWN = const(2)
BIT_LEFT = const(4)
BIT_RIGHT = const(8)
BIT_OK = const(16)
