"""Tippi Toppi – Hoch Hinaus!: rules engine, task language, achievability, hints."""
