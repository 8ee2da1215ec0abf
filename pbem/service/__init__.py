"""The game service: files, locks, passwords, the history, replay, and the one transaction
(:class:`~pbem.service.service.GameService`) through which every change to a game goes.

It sits between the adapters (command line, mail, reports) and the rules (the kernel and
the editions): adapters ask it, it asks the rules, and nothing here prints.
"""
