"""The analysis board: a local web page to play, analyse and review games.

:mod:`zerosum.board.views` describes a position for the page, :mod:`zerosum.board.sowing`
traces an Ayòayò sowing for its animation, :mod:`zerosum.board.workers` runs searches in
worker processes, :mod:`zerosum.board.app` is the ASGI app, and ``static/`` holds the page.
"""
