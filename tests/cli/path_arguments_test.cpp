// Arguments keep every byte of a file name (cli/path_arguments.h): UTF-8 decodes to its
// characters, any other byte survives the trip to QString and back.
#include "cli/path_arguments.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace rnnprof::cli {
namespace {

TEST(PathArguments, EveryByteSurvivesTheTripThroughQString) {
    for (int b = 1; b < 256; ++b) {
        std::string bytes = "a";
        bytes += char(b);
        bytes += 'z';
        EXPECT_EQ(pathFromArgument(argumentFromBytes(bytes)), bytes) << "byte " << b;
    }
    for (const std::string bytes : {"\xff\xfe", "caf\xe9.json", "\xc3", "\xe2\x82", "\xed\xa0\x80",
                                    "\xc0\xaf", "\xf4\x90\x80\x80", "\xf0\x9f\x98\x80\xff"})
        EXPECT_EQ(pathFromArgument(argumentFromBytes(bytes)), bytes);
}

TEST(PathArguments, Utf8DecodesToItsCharacters) {
    EXPECT_EQ(argumentFromBytes("caf\xc3\xa9"), QStringLiteral("caf\u00e9"));
    EXPECT_EQ(argumentFromBytes("\xf0\x9f\x98\x80"), QString::fromUtf8("\xf0\x9f\x98\x80"));
    EXPECT_EQ(pathFromArgument(QStringLiteral("r\u00e9sultats.json")), "r\xc3\xa9sultats.json");
}

TEST(PathArguments, AByteThatIsNotUtf8BecomesOneEscapeCharacter) {
    const QString a = argumentFromBytes("r\xff.json");
    ASSERT_EQ(a.size(), 7);
    EXPECT_EQ(a.at(1).unicode(), 0xDCFF);
}

TEST(PathArguments, ReadableTextShowsEachByteThatIsNotUtf8AsAnEscape) {
    EXPECT_EQ(readableArgument(argumentFromBytes("r\xff\xc3\xa9.json")), QStringLiteral("r\\xff\u00e9.json"));
    EXPECT_EQ(readableArgument(argumentFromBytes("\xf0\x9f\x98\x80\x80")),
              QString(QString::fromUtf8("\xf0\x9f\x98\x80") + QStringLiteral("\\x80")))
        << "a character outside the BMP is a surrogate pair, not two escaped bytes";
    EXPECT_EQ(readableArgument(QStringLiteral("plain/r.json")), QStringLiteral("plain/r.json"));
}

TEST(PathArguments, AbsoluteArgumentsResolveAgainstTheWorkingDirectoryKeepingEveryByte) {
    const std::string relative = "r\xff.json";
    EXPECT_EQ(pathFromArgument(absoluteArgument(argumentFromBytes(relative))),
              (std::filesystem::current_path() / relative).string());
    EXPECT_EQ(pathFromArgument(absoluteArgument(argumentFromBytes("/a/./b/../c\xfe.json"))), "/a/c\xfe.json");
}

} // namespace
} // namespace rnnprof::cli
