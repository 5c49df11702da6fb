"""Run the sandbox alone: ``python -m portal.sandbox --host HOST --port PORT --config FILE
[--state FILE]``."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from werkzeug.serving import run_simple

from portal.core.logging_filters import install_redaction
from portal.sandbox.app import SavingTicker, create_sandbox_app, keep_state, state_of
from portal.sandbox.common.config import ConfigError, load_config
from portal.sandbox.verification.ticker import Tickable, start_ticker


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and serve the sandbox until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m portal.sandbox", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8100)
    parser.add_argument("--config", required=True, help="JSON file of partners and keys")
    parser.add_argument("--state", help="JSON file that keeps the records across restarts "
                        "(make run: instance/sandbox-state.json); without it they are "
                        "forgotten when the sandbox stops")
    args = parser.parse_args(argv)
    try:
        config = load_config(args.config)
    except ConfigError as error:
        parser.error(str(error))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s sandbox %(message)s")
    install_redaction()  # request lines carry x-gl-token and verification tokens
    app = create_sandbox_app(config)
    state = state_of(app)
    ticking: Tickable = state.onboarding  # reviews and webhooks fall due
    if args.state:
        ticking = SavingTicker(ticking, keep_state(app, state, Path(args.state)))
    start_ticker(ticking)
    print(f"Gateway sandbox on http://{args.host}:{args.port}", flush=True)
    run_simple(args.host, args.port, app, threaded=True, use_reloader=False)


if __name__ == "__main__":
    main()
