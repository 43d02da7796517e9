"""Dragon Pass (in progress): data first."""
