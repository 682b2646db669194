#include "gui/config/int_list.h"
#include "gui/csv_text.h"

#include <gtest/gtest.h>

namespace rnnprof::gui {
namespace {

TEST(IntList, ParsesValuesAndRanges) {
    EXPECT_EQ(parseIntList(QStringLiteral("1, 4,16 64")).values, (std::vector<int>{1, 4, 16, 64}));
    EXPECT_EQ(parseIntList(QStringLiteral("1..16")).values, (std::vector<int>{1, 2, 4, 8, 16}));
    EXPECT_EQ(parseIntList(QStringLiteral("3-5, 10")).values, (std::vector<int>{3, 4, 5, 10}));
    EXPECT_EQ(parseIntList(QStringLiteral("0")).values, (std::vector<int>{0})); // range checks are the plan's
}

TEST(IntList, NamesTheBadToken) {
    EXPECT_TRUE(parseIntList(QStringLiteral("1, x2")).error.contains(QStringLiteral("'x2'")));
    EXPECT_TRUE(parseIntList(QStringLiteral("8..2")).error.contains(QStringLiteral("'8..2'")));
    EXPECT_FALSE(parseIntList(QStringLiteral("   ")).error.isEmpty());
    EXPECT_FALSE(parseIntList(QStringLiteral("1-100000")).error.isEmpty());
    EXPECT_FALSE(parseIntList(QStringLiteral("99999999999")).error.isEmpty());
}

TEST(IntList, RangesAndFormatting) {
    EXPECT_EQ(powersOfTwo(3, 20), (std::vector<int>{3, 6, 12}));
    EXPECT_TRUE(powersOfTwo(0, 8).empty());
    EXPECT_EQ(linearRange(10, 30, 10), (std::vector<int>{10, 20, 30}));
    EXPECT_EQ(formatIntList({1, 2, 4}), QStringLiteral("1, 2, 4"));
}

TEST(CsvText, HandlesQuotesCommasAndNewlines) {
    const auto rows = parseCsv(QStringLiteral("a,b,c\n1,\"x, y\",\"say \"\"hi\"\"\nthere\"\n,,\n"));
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[1], (QStringList{QStringLiteral("1"), QStringLiteral("x, y"),
                                    QStringLiteral("say \"hi\"\nthere")}));
    EXPECT_EQ(rows[2].size(), 3);
}

} // namespace
} // namespace rnnprof::gui
