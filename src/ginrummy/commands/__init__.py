"""Sub-commands of the ``ginrummy`` CLI, one module each (see :mod:`ginrummy.cli`)."""
