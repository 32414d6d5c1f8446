"""A tiny shop."""
from shop.cart import compute_total

__all__ = ["compute_total"]
