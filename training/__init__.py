"""Scripts users run: the ``dragongym`` command line (``training.cli``)."""
