#pragma once
// Developer tool behind scripts/screenshots.sh: opens the main window (offscreen without a
// display), runs a real small sweep, then grabs the window once per chart tab into OUTDIR as PNG.
namespace rnnprof::tools {

int runScreenshotTour(int argc, char** argv);

} // namespace rnnprof::tools
