"""Topito: stacking character blocks on three podiums to meet objective cards."""
