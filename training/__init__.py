"""Scripts users run: the ``dragongym`` command line (``dragongym.training.cli``)."""
