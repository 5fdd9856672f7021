"""The position and puzzle files that ship with toppi: per game id a folder of example
positions (with their known answers, used by the docs and the tests) and `library/`,
the puzzles with exactly one solution. Package data, so an installed toppi has them
(`solver.io.puzzles_folder()`)."""
