"""Rewrite the golden games of ``tests/golden/`` after a deliberate change of the engine.

Run from the repository root: ``PYTHONPATH=src:tests python3 scripts/regen_golden.py``.
It prints, for each game, which parts changed (actions, result, leftover, final view), so
the commit can say why; a change of actions or result means saved games replay differently.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from setgame.rules.game import action_to_dict
from test_game import GOLDEN, GOLDEN_CASES, golden_game


def main() -> int:
    for name, (seed, settings) in sorted(GOLDEN_CASES.items()):
        game = golden_game(seed, settings)
        view = json.dumps(game.view(None), sort_keys=True).encode()
        new = {
            "seed": seed,
            "settings": settings.to_dict(),
            "actions": [action_to_dict(a) for a in game.log],
            "final_view_sha256": hashlib.sha256(view).hexdigest(),
            "result": game.result(),
            "leftover": game.view(None)["table"],
        }
        path: Path = GOLDEN / f"{name}.json"
        old = json.loads(path.read_text()) if path.exists() else {}
        changed = [key for key in new if old.get(key) != new[key]]
        print(f"{name}: {', '.join(changed) or 'unchanged'}")
        path.write_text(json.dumps(new, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
