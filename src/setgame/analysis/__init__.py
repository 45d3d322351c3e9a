"""Tools that compute over the rules: many tables at once, solving, odds, simulation, ratings.

They import the rules (and the words, to write their reports); the rules never import them.
"""
