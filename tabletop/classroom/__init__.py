"""The classroom: the class list and sign-in, station rotations, reports, USB sticks.

Everything is stored in the game journal's file (:mod:`tabletop.store`, schema 3), so a
device that is unplugged mid-lesson keeps its class list, its rotation and its results.
"""
