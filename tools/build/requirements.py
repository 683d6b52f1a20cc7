"""Print one extras group of pyproject.toml as a requirements list (used by the Makefile)."""
import sys

group = sys.argv[1] if len(sys.argv) > 1 else "dev"
try:
    import tomllib
    with open("pyproject.toml", "rb") as f:
        data = tomllib.load(f)
    for line in data["project"]["optional-dependencies"][group]:
        print(line)
except ImportError:  # Python < 3.11: the list is simple enough to read as text
    inside = False
    for raw in open("pyproject.toml"):
        line = raw.strip()
        if line.startswith(group + " = ["):
            inside = True
            continue
        if inside:
            if line.startswith("]"):
                break
            if line.startswith('"'):
                print(line.strip('",'))
