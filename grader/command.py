"""How a ``grade`` command is declared: its parameters, its help, and the parser built from them.

A command is a function registered with ``@command(name, *params)``; each ``param()`` holds
the arguments of ``argparse.ArgumentParser.add_argument``, the function's docstring is the
command's help (its first paragraph is the summary ``grade -h`` lists), and the parsed
options are passed to the function by name.  ``grader.cli`` declares the commands.
"""

from __future__ import annotations

import argparse
import inspect
import shutil
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Param:
    """One argument or option: ``add_argument``'s positional and keyword arguments."""

    flags: tuple[str, ...]
    spec: dict[str, Any] = field(default_factory=dict)


def param(*flags: str, **spec: Any) -> Param:
    return Param(flags, spec)


@dataclass(frozen=True)
class Command:
    name: str  # "" for the default command, grade REPORT
    run: Callable[..., int]
    params: tuple[Param, ...]

    @property
    def help(self) -> str:
        return inspect.cleandoc(self.run.__doc__ or "")

    @property
    def summary(self) -> str:
        return self.help.split("\n\n")[0].replace("\n", " ")

    @property
    def prog(self) -> str:
        return f"grade {self.name}".strip()

    def parser(self) -> argparse.ArgumentParser:
        parser = argparse.ArgumentParser(
            prog=self.prog,
            description=self.help,
            formatter_class=argparse.RawDescriptionHelpFormatter,
            allow_abbrev=False,  # a new option must not change what an abbreviation meant
        )
        for p in self.params:
            parser.add_argument(*p.flags, **p.spec)
        if not self.name:  # grade REPORT's help is grade's: it lists the commands too
            usage = parser.format_usage().removeprefix("usage: ").rstrip()
            parser.usage = f"{usage}\n       grade COMMAND [-h] ..."
            width = max(map(len, COMMANDS)) + 4
            columns = max(shutil.get_terminal_size().columns - 2, width + 30)
            parser.epilog = "commands:\n" + "\n".join(
                textwrap.fill(
                    f"  {name:{width - 2}}{c.summary}", columns, subsequent_indent=" " * width
                )
                for name, c in COMMANDS.items()
            )
        return parser

    def invoke(self, argv: list[str]) -> int:
        return self.run(**vars(self.parser().parse_intermixed_args(argv)))


COMMANDS: dict[str, Command] = {}  # in the order `grade --help` lists them


def command(name: str, *params: Param) -> Callable[[Callable[..., int]], Callable[..., int]]:
    def register(run: Callable[..., int]) -> Callable[..., int]:
        if name in COMMANDS:
            raise ValueError(f"command {name!r} is declared twice: {COMMANDS[name].run.__name__}")
        COMMANDS[name] = Command(name, run, params)
        return run

    return register
