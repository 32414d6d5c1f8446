import unittest

from app.greet import greet


class GreetTest(unittest.TestCase):
    def test_hello(self):
        self.assertEqual(greet("Ann"), "Hello, Ann!")

    def test_unknown(self):
        self.assertEqual(greet(""), "I don't know you yet.")
