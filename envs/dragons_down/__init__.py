"""Dragons Down (in progress): the realm's data. The rules core comes with issue 12."""
# jitcache: no compiled code
