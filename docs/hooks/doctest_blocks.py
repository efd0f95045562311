"""A griffe extension for the documentation site: docstrings written for ``help()`` read well.

The project's docstrings show ``>>>`` examples inline, as the standard library's do, without a
Google ``Examples:`` heading, and name other objects with Sphinx roles (``:func:`search```).
Markdown would run the examples together into a paragraph (and read ``x[0][1]`` as a link) and
print the roles literally, so before the docstrings are parsed each run of lines that starts
with ``>>>`` at the left margin, up to the next blank line, is fenced as ``pycon`` code, and each
role becomes inline code of the name it shows. The docstrings themselves are unchanged.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

FENCE = "```"
ROLE = re.compile(r":(?:py:)?(?:func|class|meth|mod|attr|data|exc|obj|const):`(~?)([^`]+)`")


def plain_roles(text: str) -> str:
    """Replace Sphinx roles by inline code (``~`` keeps only the last dotted part).

    >>> plain_roles("see :func:`~solver.engine.search` and :mod:`solver.game`")
    'see `search` and `solver.game`'
    """
    return ROLE.sub(lambda m: f"`{m[2].rsplit('.', 1)[-1] if m[1] else m[2]}`", text)


def fence_examples(text: str) -> str:
    """Wrap each bare ``>>>`` block of ``text`` in a pycon code fence.

    >>> fence_examples("Add:\\n>>> 1 + 1\\n2\\n\\nDone.").splitlines()
    ['Add:', '```pycon', '>>> 1 + 1', '2', '```', '', 'Done.']
    """
    out: list[str] = []
    in_fence = in_example = False
    for line in text.splitlines():
        if in_example and not line.strip():
            out.append(FENCE)
            in_example = False
        elif not in_example and not in_fence and line.startswith(">>>"):
            out.append(FENCE + "pycon")
            in_example = True
        elif line.lstrip().startswith(FENCE) and not in_example:
            in_fence = not in_fence
        out.append(line)
    if in_example:
        out.append(FENCE)
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    """Fence the bare ``>>>`` examples and plain the roles of every docstring griffe loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite the docstring of each module, class, function and attribute once."""
        if obj.docstring is not None:
            obj.docstring.value = plain_roles(fence_examples(obj.docstring.value))
