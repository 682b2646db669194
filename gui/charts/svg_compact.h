#pragma once
// Qt's SVG generator opens a new group, with every style attribute spelled out, at each change of
// the painter's state; many stay empty, and QtCharts draws each marker under a translation of its
// own and each line a segment at a time. A report of 5,000 points came to 57 MB that way.
// compactSvg() writes the same picture in about a tenth of the bytes.
#include <QByteArray>

namespace rnnprof::gui {

// `svg` as QSvgGenerator writes it (a document group holding a flat list of style groups) with its
// empty groups dropped, the translations of markers and labels moved onto the elements so that
// neighbouring groups of one style become one, each run of line segments drawn as one path (a
// subpath per segment: the same caps and joins), coordinates of those to a hundredth of a pixel,
// and attributes that repeat an inherited or initial value left out. Rendered, it differs from the
// original by a shade of antialiasing at most. Anything of another shape is returned unchanged.
[[nodiscard]] QByteArray compactSvg(const QByteArray& svg);

} // namespace rnnprof::gui
