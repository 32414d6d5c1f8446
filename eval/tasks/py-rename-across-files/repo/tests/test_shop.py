import unittest

from shop import compute_total
from shop.invoice import render

LINES = [{"name": "tea", "price": 3.5, "qty": 2}, {"name": "cake", "price": 4.25, "qty": 1}]


class ShopTest(unittest.TestCase):
    def test_compute_total(self):
        self.assertEqual(compute_total(LINES), 11.25)
        self.assertEqual(compute_total(LINES, 20), 9.0)

    def test_render(self):
        self.assertTrue(render(LINES).endswith("Total: 11.25"))
