#pragma once
// Starts the desktop application: the QApplication, the main window, and the result files named
// on the command line (`rnnprof results.json other.json` opens them overlaid).
#include <QStringList>

namespace rnnprof::gui {

int runDesktopApp(int argc, char** argv);
// The result files named on the command line: every argument after the program's name (and after
// the options QApplication took out of argv), each byte of a name kept (cli/path_arguments.h):
// QApplication::arguments() would turn bytes that are not UTF-8 into U+FFFD, naming no file.
[[nodiscard]] QStringList fileArguments(int argc, char** argv);
// The text of `rnnprof --help`.
[[nodiscard]] const char* usageText();

} // namespace rnnprof::gui
