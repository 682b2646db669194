#pragma once
// Command-line arguments that keep every byte of a file name. QCoreApplication::arguments()
// decodes argv as UTF-8 and turns each byte that is not UTF-8 into U+FFFD, so a file named with
// byte \xff could not be opened. Here such a byte becomes the lone surrogate
// U+DC80 + byte (Python's "surrogateescape"), which pathFromArgument() turns back into the byte;
// everything else decodes and encodes as UTF-8. For the headless commands' flags and file
// arguments and the desktop application's file names (argv, recent files); text shown to people
// goes through readableArgument().
#include <QString>
#include <QStringList>

#include <string>
#include <string_view>

namespace rnnprof::cli {

[[nodiscard]] QString argumentFromBytes(std::string_view bytes);
// argv as QStrings, losslessly (see above).
[[nodiscard]] QStringList rawArguments(int argc, char** argv);
// The arguments of sub-command `command` as its parser takes them: rawArguments() without the
// sub-command itself, args[0] the command as a user types it ("rnnprof sweep").
[[nodiscard]] QStringList commandArguments(int argc, char** argv, const char* command);
// The bytes of an argument: UTF-8, with every escaped byte restored.
[[nodiscard]] std::string pathFromArgument(const QString& argument);
// The argument as an absolute, lexically normal path (relative to the working directory), every
// byte kept: QDir::absolutePath() would pass it through the locale's encoding and lose them.
[[nodiscard]] QString absoluteArgument(const QString& argument);
// A path as Qt decoded it from the file system (a file dialog's answer, a QDir listing), where every
// byte that is not UTF-8 became U+FFFD, as an argument with those bytes back: each name with U+FFFD
// is looked up in its folder, by the bytes of the folder's entries, and replaced by the one entry
// that Qt decodes to it. A name no entry or several entries match (a new file's name typed with
// U+FFFD) stays as it is. Paths without U+FFFD are returned unchanged.
[[nodiscard]] QString argumentFromDecodedPath(const QString& path);
// The argument as text for people (messages, menus, labels): each escaped byte shows as "\xff",
// everything else as it is. Never for opening the file.
[[nodiscard]] QString readableArgument(const QString& argument);

} // namespace rnnprof::cli
