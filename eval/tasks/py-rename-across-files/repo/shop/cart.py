"""Cart arithmetic."""


def compute_total(lines, discount_percent=0):
    """Sum price * qty of lines (dicts with "price" and "qty"), minus a percentage discount."""
    subtotal = sum(line["price"] * line["qty"] for line in lines)
    return round(subtotal * (100 - discount_percent) / 100, 2)
