"""Editions defined only for the tests, to prove that an edition is a plug-in.

Nothing under ``pbem/`` knows these; each module registers its edition with
:func:`pbem.editions.register` when it is imported, as a third-party package would.
"""
