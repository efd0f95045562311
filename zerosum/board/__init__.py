"""The analysis board: a local web page to play, analyse and review games.

:mod:`zerosum.board.views` describes a position for the page (a move the game shows step by
step comes with its steps), :mod:`zerosum.board.workers` runs searches in worker processes,
:mod:`zerosum.board.app` is the ASGI app, and ``static/`` holds the page. Games and positions
are loaded (:mod:`zerosum.positions`) and analysed (:mod:`zerosum.analysis`) by the layer the
command line shares.
"""
