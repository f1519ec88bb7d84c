// sim/exponential.cpp — see exponential.h.
#include "sim/exponential.h"

namespace pts::sim {

Exponential::Exponential() {
  // Layer i >= 1 spans [0, x_[i]] between heights exp(-x_[i]) and exp(-x_[i + 1]), area kArea;
  // the base layer is [0, kR] x [0, exp(-kR)] plus the tail beyond kR (area exp(-kR)).
  x_[0] = kArea / std::exp(-kR);
  x_[1] = kR;
  for (int i = 1; i < 256; ++i) {
    const double y = std::exp(-x_[i]) + kArea / x_[i];
    x_[i + 1] = y < 1.0 ? -std::log(y) : 0.0;
  }
  x_[256] = 0.0;
  for (int i = 0; i <= 256; ++i) f_[i] = std::exp(-x_[i]);
}

const Exponential kExponential;

}  // namespace pts::sim
