"""antike-ref: a play-by-email referee for Mac Gerdts' Antike."""

__version__ = "0.1.0"
