// CHECK macros for programmer errors (broken preconditions), in the spirit of Abseil's
// absl/log/check.h, which Debian's Abseil 20220623 does not ship yet.
//
// A failed check prints "file:line: Check failed: <condition> <message>" to stderr and aborts.
// Use them only for preconditions a caller can establish; input and configuration errors
// are reported through absl::Status instead.
//
// Example:
//   SGMCMC_CHECK(shape > 0) << "GammaSample: shape must be > 0, got " << shape;
//   SGMCMC_DCHECK_LT(i, n);  // compiled out under NDEBUG
#ifndef SGMCMC_BASE_CHECK_H_
#define SGMCMC_BASE_CHECK_H_

#include <cstdlib>
#include <iostream>
#include <sstream>

namespace sgmcmc::base_internal {

// Collects the message of a failed check and aborts when destroyed. Only constructed on the
// failure path; its members are cold and out of line and the stream lives on the heap, so a
// hot function holding a check keeps a small stack frame.
class CheckFailure {
 public:
  [[gnu::cold, gnu::noinline]] CheckFailure(const char* file, int line, const char* condition)
      : stream_(new std::ostringstream) {
    *stream_ << file << ":" << line << ": Check failed: " << condition << " ";
  }
  CheckFailure(const CheckFailure&) = delete;
  CheckFailure& operator=(const CheckFailure&) = delete;
  [[noreturn, gnu::cold, gnu::noinline]] ~CheckFailure() {
    std::cerr << stream_->str() << std::endl;
    std::abort();
  }
  std::ostream& stream() { return *stream_; }

 private:
  std::ostringstream* stream_;  // never freed: the destructor aborts
};

// Turns the stream expression into void so it fits in the ternary of SGMCMC_CHECK.
struct Voidify {
  void operator&(std::ostream&) {}
};

}  // namespace sgmcmc::base_internal

#define SGMCMC_CHECK(condition)                   \
  (__builtin_expect(static_cast<bool>(condition), 1)) \
      ? (void)0                                   \
      : ::sgmcmc::base_internal::Voidify() &      \
            ::sgmcmc::base_internal::CheckFailure(__FILE__, __LINE__, #condition).stream()

#define SGMCMC_CHECK_OP_(a, op, b) SGMCMC_CHECK((a)op(b)) << "(" << (a) << " vs " << (b) << ") "
#define SGMCMC_CHECK_EQ(a, b) SGMCMC_CHECK_OP_(a, ==, b)
#define SGMCMC_CHECK_NE(a, b) SGMCMC_CHECK_OP_(a, !=, b)
#define SGMCMC_CHECK_LT(a, b) SGMCMC_CHECK_OP_(a, <, b)
#define SGMCMC_CHECK_LE(a, b) SGMCMC_CHECK_OP_(a, <=, b)
#define SGMCMC_CHECK_GT(a, b) SGMCMC_CHECK_OP_(a, >, b)
#define SGMCMC_CHECK_GE(a, b) SGMCMC_CHECK_OP_(a, >=, b)

#ifdef NDEBUG
#define SGMCMC_DCHECK(condition) \
  while (false) SGMCMC_CHECK(condition)
#else
#define SGMCMC_DCHECK(condition) SGMCMC_CHECK(condition)
#endif
#define SGMCMC_DCHECK_EQ(a, b) SGMCMC_DCHECK((a) == (b))
#define SGMCMC_DCHECK_LT(a, b) SGMCMC_DCHECK((a) < (b))
#define SGMCMC_DCHECK_LE(a, b) SGMCMC_DCHECK((a) <= (b))
#define SGMCMC_DCHECK_GE(a, b) SGMCMC_DCHECK((a) >= (b))

#endif  // SGMCMC_BASE_CHECK_H_
