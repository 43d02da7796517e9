"""The conformance suite: one set of tests every registered game passes (see conftest.py)."""
