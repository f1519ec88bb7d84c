// unit-tests/fuzz/fuzz_check.h — what every fuzz target shares: FUZZ_CHECK, an invariant that
// aborts (so libFuzzer reports it as a crash, with the input) when a loader accepts an input
// and hands back something it promises never to.
#pragma once

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond)                                                              \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                   \
    }                                                                                 \
  } while (0)
