"""`python -m forge ...` is the `forge` command."""

from forge.cli import main

main()
