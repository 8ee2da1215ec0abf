"""What advises and stands in for players: ``options``, the bots, self-play.

Everything here asks the kernel's rule queries (:mod:`pbem.kernel.queries`) and the
actions' previews; nothing re-derives a rule.
"""
