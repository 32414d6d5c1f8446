"""Invoices."""
from shop import cart


def render(lines, discount_percent=0):
    total = cart.compute_total(lines, discount_percent)
    rows = [f"{line['name']}: {line['qty']} x {line['price']:.2f}" for line in lines]
    return "\n".join(rows + [f"Total: {total:.2f}"])
