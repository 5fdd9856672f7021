"""Errors that the command line turns into one-line messages and exit codes."""

from __future__ import annotations


class ToppiError(Exception):
    """Base class: a problem the user can act on; never shown as a traceback."""

    exit_code = 2


class BadInput(ToppiError):
    """Malformed or impossible input (position, rules file, option value): exit 2."""

    exit_code = 2


class NotBuiltYet(ToppiError):
    """A game or verb that is planned but not implemented: exit 2."""

    exit_code = 2


class TimeLimitReached(ToppiError):
    """The solver ran out of time without any answer: exit 3."""

    exit_code = 3
