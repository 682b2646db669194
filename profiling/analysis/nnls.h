#pragma once
// Non-negative least squares: the x >= 0 that minimises |A x - b|, by Lawson and Hanson's
// active-set method (Solving Least Squares Problems, 1974, ch. 23), for the few columns (tens) and
// rows (hundreds) of the cost model. Columns that the rows cannot tell apart get a tiny ridge, so
// that the solution stays finite; the split between such columns is then arbitrary, the fit not.
#include <vector>

namespace rnnprof {

// `rows` are A's rows, all of the length of the first; `target` is b. Returns x (A's column count).
[[nodiscard]] std::vector<double> nonNegativeLeastSquares(const std::vector<std::vector<double>>& rows,
                                                          const std::vector<double>& target);

} // namespace rnnprof
