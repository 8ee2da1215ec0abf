"""The order language: the text syntax of orders (``textorders``), the names players write
(``names``) and the board's words in an order file (``aliases``)."""
