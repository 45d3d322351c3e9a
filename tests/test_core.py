"""Cards and sets (R01-R05) beyond the rule tests: notation, lookups and explanations."""

from __future__ import annotations
