#include "gui/config/int_list.h"

#include <QRegularExpression>
#include <QStringList>

namespace rnnprof::gui {
namespace {

constexpr int kMaxValues = 4096;

std::optional<int> number(const QString& s) {
    bool ok = false;
    const qlonglong v = s.trimmed().toLongLong(&ok);
    if (!ok || v < -2147483647LL || v > 2147483647LL) return std::nullopt;
    return static_cast<int>(v);
}

} // namespace

IntListParse parseIntList(const QString& text) {
    IntListParse out;
    const QStringList tokens = text.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    if (tokens.isEmpty()) {
        out.error = QStringLiteral("give at least one value, e.g. 1, 4, 16 or 1..256 (powers of two)");
        return out;
    }
    for (const QString& token : tokens) {
        const qsizetype dots = token.indexOf(QStringLiteral(".."));
        const qsizetype dash = token.indexOf(QLatin1Char('-'), 1);
        if (dots > 0 || dash > 0) {
            const bool pow2 = dots > 0;
            const qsizetype at = pow2 ? dots : dash;
            const auto a = number(token.left(at));
            const auto b = number(token.mid(at + (pow2 ? 2 : 1)));
            if (!a || !b || *a < 1 || *b < *a) {
                out.error =
                    QStringLiteral("'%1' is not a range: write FROM-TO (every value) or FROM..TO (powers of "
                                   "two), with 1 <= FROM <= TO")
                        .arg(token);
                return out;
            }
            const long long count = pow2 ? 32 : static_cast<long long>(*b) - *a + 1;
            const auto values = pow2 ? powersOfTwo(*a, *b) : linearRange(*a, *b, 1);
            if (out.values.size() + std::size_t(count) > std::size_t(kMaxValues)) {
                out.error =
                    QStringLiteral("'%1' gives too many values (at most %2)").arg(token).arg(kMaxValues);
                return out;
            }
            out.values.insert(out.values.end(), values.begin(), values.end());
            continue;
        }
        const auto v = number(token);
        if (!v) {
            out.error = QStringLiteral("'%1' is not a whole number").arg(token);
            return out;
        }
        out.values.push_back(*v);
    }
    return out;
}

QString formatIntList(const std::vector<int>& values) {
    QStringList parts;
    for (int v : values)
        parts << QString::number(v);
    return parts.join(QStringLiteral(", "));
}

std::vector<int> powersOfTwo(int from, int to) {
    std::vector<int> out;
    if (from < 1 || to < from) return out;
    for (long long v = from; v <= to; v *= 2)
        out.push_back(static_cast<int>(v));
    return out;
}

std::vector<int> linearRange(int from, int to, int step) {
    std::vector<int> out;
    if (step < 1 || to < from) return out;
    for (long long v = from; v <= to && out.size() < std::size_t(kMaxValues); v += step)
        out.push_back(static_cast<int>(v));
    return out;
}

} // namespace rnnprof::gui
