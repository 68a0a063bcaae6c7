"""Small command-line subcommands (see ``ginrummy.cli``)."""
