"""Game-agnostic kernels (rng, hexgrid, spec, game contract) and the generic adapters.

Kept empty so that ``import dragongym.envs`` stays cheap: import the submodules you need.
"""
# jitcache: no compiled code
