// sim/exponential.h — exponential draws for the per-command controller jitter, by the
// ziggurat method (Marsaglia and Tsang, "The Ziggurat Method for Generating Random Variables",
// 2000): 256 layers of equal area under exp(-x), so a draw is one 64-bit word, a table lookup
// and a compare 98.9 % of the time; a layer's curved edge and the tail beyond the base layer
// take a second word and one exp or log1p. Exact in distribution (up to double rounding) and
// a function of the generator's words only, so a seed gives the same jitter on every run.
// It is on every command's path, where a logarithm per draw was too slow (docs/performance.md).
// May use: std only.
#pragma once

#include <cmath>
#include <cstdint>

namespace pts::sim {

class Exponential {
 public:
  /// Layer edges x_[0..256] (x_[0] = the base layer's width with its tail folded in, x_[1] =
  /// kR, x_[256] = 0) and exp(-x_[i]).
  Exponential();

  /// A standard exponential draw (mean 1); `next()` returns uniform 64-bit words.
  template <class Next>
  double draw(Next&& next) const {
    for (;;) {
      const uint64_t w = next();
      const uint32_t i = static_cast<uint32_t>(w & 0xFF);       // the layer: the low 8 bits
      const double x = double(w >> 11) * 0x1p-53 * x_[i];          // along it: the top 53
      if (x < x_[i + 1]) return x;                                 // inside the curve everywhere
      const double u = double(next() >> 11) * 0x1p-53;
      if (i == 0) return kR - std::log1p(-u);                      // the tail: kR + Exp(1)
      if (f_[i] + u * (f_[i + 1] - f_[i]) < std::exp(-x)) return x;  // under the curve's edge
    }
  }

 private:
  static constexpr double kR = 7.697117470131487;        ///< the base layer's right edge
  static constexpr double kArea = 3.949659822581572e-3;  ///< each layer's area
  double x_[257];
  double f_[257];
};

/// The tables, built once.
extern const Exponential kExponential;

}  // namespace pts::sim
