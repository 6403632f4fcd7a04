"""``python -m grader`` is the ``grade`` command."""

from grader.console import main

main()
