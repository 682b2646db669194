#pragma once
// Non-negative least squares: the x >= 0 that minimises |A x - b|, by Lawson and Hanson's
// active-set method (Solving Least Squares Problems, 1974, ch. 23), for the few columns (tens) and
// rows (hundreds) of the cost model. Every solve adds a ridge of 1e-12 of the largest diagonal
// element, so that columns the rows cannot tell apart still give a finite solution; the split
// between such columns is then arbitrary, the fit not.
#include <vector>

namespace rnnprof {

// `rows` are A's rows, all of the length of the first; `target` is b. Returns x (A's column count).
[[nodiscard]] std::vector<double> nonNegativeLeastSquares(const std::vector<std::vector<double>>& rows,
                                                          const std::vector<double>& target);

} // namespace rnnprof
