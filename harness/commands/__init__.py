"""Subcommands of `refold`, one module each, every one a thin call into the harness."""
