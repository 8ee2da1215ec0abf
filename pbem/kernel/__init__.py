"""The kernel: the rules every edition shares, as pure functions on values.

It knows states, boards, payments, the rondel's arithmetic, the shared actions, the
maneuver, GM edits and the rule questions (:mod:`.queries`), and it is handed an edition
(:class:`.edition.Edition`) for everything that differs. It reads no file, keeps no clock,
checks no password, writes no history and names no wedge, know-how or personage: the game
service (:mod:`pbem.service`) does the rest. Entry points: :func:`.turn.resolve` (a turn)
and :func:`.edit.apply_edit` (a GM edit).
"""
