"""The one exception the command line turns into a clear message."""


class PatienceError(Exception):
    """Bad input from a user: a deck, a variant, a move, a file.

    The message is a single line meant for people; the CLI prints it and exits
    with a non-zero status instead of showing a traceback.
    """
