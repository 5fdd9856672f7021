"""One package per game: rules engine, task language, encodings and queries."""
