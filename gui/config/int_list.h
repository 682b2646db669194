#pragma once
// The text form of the sweep's batch sizes and sequence lengths: "1, 2, 4, 8" or with ranges
// "1-8" (every value) and "1..256" (powers of two). Parsing names the first bad token, so the
// panel can show it at the field.
#include <QString>

#include <optional>
#include <vector>

namespace rnnprof::gui {

struct IntListParse {
    std::vector<int> values;
    QString error; // empty when the text parsed
};

[[nodiscard]] IntListParse parseIntList(const QString& text);
[[nodiscard]] QString formatIntList(const std::vector<int>& values);
// from, 2*from, 4*from, ... up to `to` (inclusive); empty when from < 1 or to < from.
[[nodiscard]] std::vector<int> powersOfTwo(int from, int to);
// from, from+step, ... up to `to`.
[[nodiscard]] std::vector<int> linearRange(int from, int to, int step);

} // namespace rnnprof::gui
