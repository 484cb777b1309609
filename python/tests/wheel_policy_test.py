"""python/wheel_policy.py (auditwheel's manylinux_2_28 check, written out) on a library that
satisfies the policy and on the extension module the wheel ships, whose violations are the
ones python/README.md documents: Debian's shared Abseil and protobuf, and symbol versions of
Debian 12's glibc 2.36 / GCC 12 libstdc++. When the wheel becomes self-contained this test
(and the README) must change with it."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import wheel_policy  # noqa: E402  (python/wheel_policy.py)


class WheelPolicyTest(unittest.TestCase):
    def test_a_policy_conforming_library_passes(self):
        # Debian's zlib needs only libc.so.6, with versions below GLIBC_2.28.
        path = "/usr/lib/x86_64-linux-gnu/libz.so.1"
        self.assertEqual(wheel_policy.needed_libraries(path), ["libc.so.6"])
        self.assertEqual(wheel_policy.violations(path), [])
        self.assertEqual(wheel_policy.main(["wheel_policy", path]), 0)

    def test_the_extension_module_violations_are_the_documented_ones(self):
        path = sys.argv[1]
        problems = wheel_policy.violations(path)
        libraries = [p for p in problems if p.endswith("(not in manylinux_2_28's library list)")]
        self.assertTrue(libraries)
        for problem in libraries:
            self.assertRegex(problem, r"^needs (libabsl_\w+\.so\.20220623|libprotobuf\.so\.32) ")
        self.assertIn("needs libprotobuf.so.32 (not in manylinux_2_28's library list)", problems)
        versions = [p for p in problems if p not in libraries]
        for problem in versions:
            self.assertRegex(problem, r"^needs (GLIBC_2\.(29|3\d)|GLIBCXX_3\.4\.(2[5-9]|3\d)|"
                                      r"CXXABI_1\.3\.1[2-9]) from (libc|libm|libstdc\+\+)\.so\.6 ")
        self.assertIn("libc.so.6", wheel_policy.needed_libraries(path))
        self.assertEqual(wheel_policy.main(["wheel_policy", path]), 1)

    def test_version_comparison(self):
        self.assertEqual(wheel_policy._parse("GLIBC_2.28"), ("GLIBC", (2, 28)))
        self.assertEqual(wheel_policy._parse("GLIBCXX_3.4.9"), ("GLIBCXX", (3, 4, 9)))
        self.assertLess(wheel_policy._parse("GLIBCXX_3.4.9")[1], wheel_policy.MAX_VERSIONS["GLIBCXX"])
        self.assertGreater(wheel_policy._parse("GLIBC_2.29")[1], wheel_policy.MAX_VERSIONS["GLIBC"])
        self.assertEqual(wheel_policy._parse("Base"), (None, None))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
