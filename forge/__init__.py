"""Forge: synthesize verifiable desktop tasks for computer-use agents.

The library does the work; the CLI (`forge.cli`) and the Prefect flows (`forge.flows`) are thin
layers over it. See README.md for the architecture and the catalog schema.
"""

__version__ = "0.1.0"
