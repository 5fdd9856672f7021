"""Hippo: rules engine, optimal chip placement, plans over known rolls, finishing chances."""
