// Arguments keep every byte of a file name (cli/path_arguments.h): UTF-8 decodes to its
// characters, any other byte survives the trip to QString and back.
#include "cli/path_arguments.h"
#include "support/temp_dir.h"

#include <QFile>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
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

// What Qt's file dialogs answer: the path decoded by Qt, each byte that is not UTF-8 shown as U+FFFD.
QString decodedByQt(const std::string& bytes) {
    return QFile::decodeName(QByteArray::fromStdString(bytes));
}

TEST(PathArguments, ADialogsPathGetsTheBytesOfItsNamesBackFromTheirFolders) {
    const test::TempDir dir;
    const std::string folder = dir.path("runs\xff");
    std::filesystem::create_directories(folder);
    const std::string file = folder + "/r\xfe.json";
    std::ofstream(file) << "{}";
    ASSERT_TRUE(decodedByQt(file).contains(QChar::ReplacementCharacter)) << "Qt loses the bytes";

    EXPECT_EQ(pathFromArgument(argumentFromDecodedPath(decodedByQt(file))), file) << "an existing file";
    EXPECT_EQ(pathFromArgument(argumentFromDecodedPath(decodedByQt(folder + "/new.json"))),
              folder + "/new.json")
        << "a new file in an existing folder, as Save answers";
}

TEST(PathArguments, ADecodedNameThatNoOrSeveralEntriesMatchStaysAsItIs) {
    const test::TempDir dir;
    std::filesystem::create_directories(dir.path("a\xff"));
    std::filesystem::create_directories(dir.path("a\xfe")); // both show as "a\uFFFD"
    const QString ambiguous = decodedByQt(dir.path("a\xff") + "/r.json");
    EXPECT_EQ(argumentFromDecodedPath(ambiguous), ambiguous);
    const QString typed = QString::fromStdString(dir.path()) + QStringLiteral("/new\uFFFD.json");
    EXPECT_EQ(argumentFromDecodedPath(typed), typed) << "a new name typed with U+FFFD is that character";
    EXPECT_EQ(argumentFromDecodedPath(QStringLiteral("/tmp/caf\u00e9.json")),
              QStringLiteral("/tmp/caf\u00e9.json"));
}

} // namespace
} // namespace rnnprof::cli
