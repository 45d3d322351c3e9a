"""The build step pyproject.toml cannot express: compile the gettext catalogs.

``pip install .`` and wheels get each ``setgame/locale/<lang>/LC_MESSAGES/setgame.mo``
compiled from its ``.po`` (with Babel, a build requirement), and ``setgame.mo.crc32``
naming the ``.po`` it was made from. An editable install or
a source checkout has no ``.mo``: ``setgame.words.catalog`` compiles one into a cache on
first use instead.
"""

from __future__ import annotations

import zlib
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogs(build_py):
    """build_py, then one ``.mo`` beside each ``.po`` in the build tree."""

    def run(self) -> None:
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in Path(self.build_lib, "setgame", "locale").glob("*/LC_MESSAGES/*.po"):
            with po.open("rb") as source:
                catalog = read_po(source)
            mo = po.with_suffix(".mo")
            with mo.open("wb") as target:
                write_mo(target, catalog)
            # What the .mo was made from (setgame.words.catalog.fingerprint): file times do not
            # survive an install, a checksum does.
            crc = zlib.crc32(po.read_bytes())
            mo.with_name(mo.name + ".crc32").write_text(f"{crc:08x}\n")


setup(cmdclass={"build_py": BuildWithCatalogs})
