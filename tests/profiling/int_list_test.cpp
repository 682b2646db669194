// The one list grammar of batch sizes and sequence lengths (profiling/int_list.h), read the same
// by the GUI's fields, the command line and config files.
#include "profiling/int_list.h"

#include <gtest/gtest.h>

namespace rnnprof {
namespace {

using Values = std::vector<int>;
constexpr int kMax = 65536;

Values valuesOf(const char* text, int max = kMax) {
    const IntListParse parsed = parseIntList(text, max);
    EXPECT_TRUE(parsed.ok()) << text << ": " << parsed.error;
    return parsed.values;
}

std::string errorOf(const char* text, int max = kMax) {
    const IntListParse parsed = parseIntList(text, max);
    EXPECT_FALSE(parsed.ok()) << text << " parsed to " << formatIntList(parsed.values);
    return parsed.error;
}

TEST(IntList, SeparatesValuesByCommasSemicolonsOrWhiteSpace) {
    EXPECT_EQ(valuesOf("1, 4,16 64;128"), (Values{1, 4, 16, 64, 128}));
    EXPECT_EQ(valuesOf("  7  "), (Values{7}));
}

TEST(IntList, DashGivesEveryValueFromTo) {
    EXPECT_EQ(valuesOf("3-5"), (Values{3, 4, 5}));
    EXPECT_EQ(valuesOf("3-5, 10"), (Values{3, 4, 5, 10}));
    EXPECT_EQ(valuesOf("9-9"), (Values{9}));
}

TEST(IntList, DotsGivePowersOfTwoFromAndTheEndItself) {
    // The two readings that once differed between the GUI ({1,2,4,8,16}) and the command line.
    EXPECT_EQ(valuesOf("1..20"), (Values{1, 2, 4, 8, 16, 20}));
    EXPECT_EQ(valuesOf("1..16"), (Values{1, 2, 4, 8, 16}));
    EXPECT_EQ(valuesOf("3..20"), (Values{3, 6, 12, 20}));
    EXPECT_EQ(valuesOf("1..65536").size(), 17u);
}

TEST(IntList, RefusesValuesOutsideOneToMaxNamingTheValue) {
    EXPECT_EQ(errorOf("0"), "0 is out of range (1..65536)");
    EXPECT_EQ(errorOf("65537"), "65537 is out of range (1..65536)");
    EXPECT_EQ(errorOf("-5"), "-5 is out of range (1..65536)");
    EXPECT_EQ(errorOf("1..100", 64).find("'1..100' is not a range"), 0u);
}

TEST(IntList, RefusesMalformedItemsNamingThem) {
    EXPECT_NE(errorOf("1, x2").find("'x2' is not a whole number"), std::string::npos);
    EXPECT_NE(errorOf("8..2").find("'8..2' is not a range"), std::string::npos);
    EXPECT_NE(errorOf("5-3").find("'5-3' is not a range"), std::string::npos);
    EXPECT_NE(errorOf("3-").find("'3-' is not a range"), std::string::npos);
    EXPECT_NE(errorOf("99999999999999999999").find("is not a whole number"), std::string::npos);
    EXPECT_NE(errorOf("   ").find("at least one value"), std::string::npos);
}

TEST(IntList, RefusesAValueGivenTwiceAlsoByOverlappingRanges) {
    EXPECT_EQ(errorOf("1,4,1"), "1 is given twice ('1' repeats it)");
    EXPECT_EQ(errorOf("1-8, 4..64"), "4 is given twice ('4..64' repeats it)");
}

TEST(IntList, BoundsHowManyValuesOneTextGives) {
    EXPECT_NE(errorOf("1-100000", 1000000).find("too many values"), std::string::npos);
    EXPECT_EQ(valuesOf("1-4096").size(), std::size_t(kMaxListValues));
    EXPECT_NE(errorOf("1-4096, 5000").find("too many values"), std::string::npos);
}

TEST(IntList, FormatParsesBackToTheSameValues) {
    const Values values{1, 3, 20, 512};
    EXPECT_EQ(formatIntList(values), "1, 3, 20, 512");
    EXPECT_EQ(valuesOf(formatIntList(values).c_str()), values);
}

TEST(IntList, RangeHelpers) {
    EXPECT_EQ(powersOfTwo(3, 20), (Values{3, 6, 12}));
    EXPECT_TRUE(powersOfTwo(0, 8).empty());
    EXPECT_EQ(linearRange(10, 30, 10), (Values{10, 20, 30}));
    EXPECT_TRUE(linearRange(10, 30, 0).empty());
}

} // namespace
} // namespace rnnprof
