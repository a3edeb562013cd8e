"""``python -m heterodox.ray``: see heterodox.ray.cli."""

from heterodox.ray.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
