#pragma once
// The optional dark palette (Fusion style with a dark QPalette), switchable at run time; switching
// back restores the style and palette the application started with.
namespace rnnprof::gui {

void setDarkPalette(bool dark);
[[nodiscard]] bool darkPaletteActive();

} // namespace rnnprof::gui
