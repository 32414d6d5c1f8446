import unittest

from calendar_utils import days_in_february, is_leap


class LeapTest(unittest.TestCase):
    def test_is_leap(self):
        cases = {2024: True, 2023: False, 1900: False, 2000: True}
        for year, want in cases.items():
            with self.subTest(year=year):
                self.assertEqual(is_leap(year), want)

    def test_february(self):
        self.assertEqual(days_in_february(2000), 29)
        self.assertEqual(days_in_february(2100), 28)


if __name__ == "__main__":
    unittest.main()
