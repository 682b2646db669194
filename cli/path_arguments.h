#pragma once
// Command-line arguments that keep every byte of a file name. QCoreApplication::arguments()
// decodes argv as UTF-8 and turns each byte that is not UTF-8 into U+FFFD, so a file named with
// byte \xff could not be opened (issue 16). Here such a byte becomes the lone surrogate
// U+DC80 + byte (Python's "surrogateescape"), which pathFromArgument() turns back into the byte;
// everything else decodes and encodes as UTF-8. For the headless commands' flags and file
// arguments; not for text shown in the GUI.
#include <QString>
#include <QStringList>

#include <string>
#include <string_view>

namespace rnnprof::cli {

[[nodiscard]] QString argumentFromBytes(std::string_view bytes);
// argv as QStrings, losslessly (see above).
[[nodiscard]] QStringList rawArguments(int argc, char** argv);
// The bytes of an argument: UTF-8, with every escaped byte restored.
[[nodiscard]] std::string pathFromArgument(const QString& argument);

} // namespace rnnprof::cli
