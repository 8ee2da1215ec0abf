"""Playing by e-mail: orders in from a mailbox, receipts and reports out, deadlines kept.

An adapter beside the command line: it reads mail (:mod:`pbem.mail.inbox`), hands the
orders it finds to the game service, composes the answers (:mod:`pbem.mail.compose`,
:mod:`pbem.mail.answers`) and delivers them through a spool folder
(:mod:`pbem.mail.transport`), remembering what it did in a ledger beside each game
(:mod:`pbem.mail.ledger`); the game's clock is the service's
(:mod:`pbem.service.clock`). :mod:`pbem.mail.cycle` is the one cycle ``inbox``,
``remind`` and ``mail run`` share: open it to learn what happens to one mail. The time is
read only by the command line and handed in, so every step can be run at a time a test
chooses. The adapter reaches the kernel only through the service.
"""
