"""Errors that the command line turns into one-line messages and exit codes."""

from __future__ import annotations


class ToppiError(Exception):
    """Base class: a problem the user can act on; never shown as a traceback."""

    exit_code = 2


class BadInput(ToppiError):
    """Malformed or impossible input (position, rules file, option value): exit 2."""

    exit_code = 2


class TimeLimitReached(ToppiError):
    """A solver stopped at its time limit (or work budget) before deciding: exit 3 when
    no answer can be given without it."""

    exit_code = 3
