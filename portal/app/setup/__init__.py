"""``flask setup gateway`` and ``flask setup check``: the guided switch to the real gateway."""
