"""Run every benchmark and print one table: ``python -m bench`` (``make bench``)."""

from __future__ import annotations

import platform

from bench import signing
from bench.measure import render

SUITES = (signing,)


def main() -> None:
    """Run the suites in turn and print the table with the machine it ran on."""
    rows = [row for suite in SUITES for row in suite.run()]
    print(f"Machine: {platform.machine()}, {platform.python_implementation()} "
          f"{platform.python_version()}, {platform.system()} {platform.release()}")
    print(render(rows))


if __name__ == "__main__":
    main()
