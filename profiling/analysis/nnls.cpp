#include "profiling/analysis/nnls.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace rnnprof {
namespace {

using Matrix = std::vector<std::vector<double>>;

// Least squares over the columns in `passive` (the others 0), from the normal equations G z = h
// with a ridge of 1e-12 of G's largest diagonal element; Gaussian elimination, partial pivoting.
std::vector<double> passiveSolve(const Matrix& g, const std::vector<double>& h,
                                 const std::vector<bool>& passive) {
    std::vector<std::size_t> cols;
    for (std::size_t j = 0; j < passive.size(); ++j)
        if (passive[j]) cols.push_back(j);
    const std::size_t m = cols.size();
    double largest = 0.0;
    for (std::size_t j : cols)
        largest = std::max(largest, g[j][j]);
    Matrix a(m, std::vector<double>(m + 1, 0.0));
    for (std::size_t p = 0; p < m; ++p) {
        for (std::size_t q = 0; q < m; ++q)
            a[p][q] = g[cols[p]][cols[q]];
        a[p][p] += 1e-12 * largest + 1e-300;
        a[p][m] = h[cols[p]];
    }
    for (std::size_t p = 0; p < m; ++p) {
        std::size_t pivot = p;
        for (std::size_t r = p + 1; r < m; ++r)
            if (std::abs(a[r][p]) > std::abs(a[pivot][p])) pivot = r;
        std::swap(a[p], a[pivot]);
        for (std::size_t r = p + 1; r < m; ++r) {
            const double f = a[r][p] / a[p][p];
            for (std::size_t q = p; q <= m; ++q)
                a[r][q] -= f * a[p][q];
        }
    }
    std::vector<double> z(passive.size(), 0.0);
    std::vector<double> zp(m, 0.0);
    for (std::size_t p = m; p-- > 0;) {
        double s = a[p][m];
        for (std::size_t q = p + 1; q < m; ++q)
            s -= a[p][q] * zp[q];
        zp[p] = s / a[p][p];
    }
    for (std::size_t p = 0; p < m; ++p)
        z[cols[p]] = zp[p];
    return z;
}

} // namespace

std::vector<double> nonNegativeLeastSquares(const Matrix& rows, const std::vector<double>& target) {
    const std::size_t n = rows.empty() ? 0 : rows.front().size();
    // Columns scaled to unit length, so that a constant and FLOP counts of 1e12 share one system.
    std::vector<double> scale(n, 0.0);
    for (const auto& r : rows)
        for (std::size_t j = 0; j < n; ++j)
            scale[j] += r[j] * r[j];
    for (double& s : scale)
        s = s > 0.0 ? std::sqrt(s) : 0.0;
    Matrix g(n, std::vector<double>(n, 0.0));
    std::vector<double> h(n, 0.0);
    for (std::size_t i = 0; i < rows.size(); ++i)
        for (std::size_t p = 0; p < n; ++p) {
            if (scale[p] == 0.0) continue;
            const double xp = rows[i][p] / scale[p];
            h[p] += xp * target[i];
            for (std::size_t q = 0; q < n; ++q)
                if (scale[q] > 0.0) g[p][q] += xp * rows[i][q] / scale[q];
        }
    std::vector<double> x(n, 0.0);
    std::vector<bool> passive(n, false);
    // A column whose entry moved nothing (its coefficient left the passive set at once) is not
    // tried again until x changes, so that the other columns get their turn.
    std::vector<bool> rejected(n, false);
    // The gradient of -|A x - b|^2 / 2: h - G x.
    const auto gradient = [&] {
        std::vector<double> w(n);
        for (std::size_t p = 0; p < n; ++p) {
            w[p] = h[p];
            for (std::size_t q = 0; q < n; ++q)
                w[p] -= g[p][q] * x[q];
        }
        return w;
    };
    for (std::size_t outer = 0; outer < 3 * n + 3; ++outer) {
        const std::vector<double> w = gradient();
        std::size_t best = n;
        for (std::size_t j = 0; j < n; ++j)
            if (!passive[j] && !rejected[j] && scale[j] > 0.0 && w[j] > 1e-12 &&
                (best == n || w[j] > w[best]))
                best = j;
        if (best == n) break;
        passive[best] = true;
        const std::vector<double> before = x;
        for (std::size_t inner = 0; inner < 3 * n + 3; ++inner) {
            const std::vector<double> z = passiveSolve(g, h, passive);
            bool feasible = true;
            for (std::size_t j = 0; j < n; ++j)
                if (passive[j] && z[j] <= 0.0) feasible = false;
            if (feasible) {
                x = z;
                break;
            }
            // Step from x towards z as far as every passive coefficient stays >= 0; those that
            // reach 0 leave the passive set.
            double alpha = 1.0;
            for (std::size_t j = 0; j < n; ++j)
                if (passive[j] && z[j] <= 0.0) alpha = std::min(alpha, x[j] / (x[j] - z[j]));
            for (std::size_t j = 0; j < n; ++j) {
                x[j] += alpha * (z[j] - x[j]);
                if (passive[j] && x[j] <= 1e-15) {
                    passive[j] = false;
                    x[j] = 0.0;
                }
            }
        }
        if (x == before)
            rejected[best] = true;
        else
            rejected.assign(n, false);
    }
    for (std::size_t j = 0; j < n; ++j)
        x[j] = scale[j] > 0.0 ? std::max(0.0, x[j]) / scale[j] : 0.0;
    return x;
}

} // namespace rnnprof
