"""One module per ``companion`` subcommand (see ``companion.cli``)."""
