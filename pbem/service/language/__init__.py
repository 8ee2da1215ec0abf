"""The order language: the text syntax of orders, the names players write and the board's
words in an order file.

- ``textorders``: a text of orders read whole (which lines are orders, where each part of
  the orders came from), the entry point of reading;
- ``mailtext``: the lines of a mail body that can hold orders (replies, signatures and
  trailers cut);
- ``tokens``: the words of one line;
- ``orderline``: a cursor over one order line, taking the parts orders are made of;
- ``grammar``: what the line of each order word says;
- ``writer``: canonical orders written back as text;
- ``names``: the names players write, matched forgivingly, and the one place the language
  asks an edition for its words (:func:`~pbem.service.language.names.vocabulary` to read,
  :func:`~pbem.service.language.names.spelling` to write);
- ``aliases``: the board's words in an order file.
"""
