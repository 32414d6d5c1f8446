import unittest

from calendar_utils import is_leap


class HiddenLeapTest(unittest.TestCase):
    def test_more_years(self):
        for year, want in {1600: True, 1700: False, 2400: True, 1996: True, 2001: False}.items():
            with self.subTest(year=year):
                self.assertEqual(is_leap(year), want)
