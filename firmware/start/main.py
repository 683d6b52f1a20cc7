# The board's main.py: copied as /main.py by tools/build/deploy.py, frozen as main.py into a
# firmware image (firmware/manifest.py). One line: the code is in the packages.
from firmware import main; main.run()
