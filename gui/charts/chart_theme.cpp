#include "gui/charts/chart_theme.h"

#include <QChart>

#include <array>
#include <map>
#include <set>

namespace rnnprof::gui {

bool isDarkPalette(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < 128;
}

ChartStyle chartStyleFor(const QPalette& palette) {
    ChartStyle s;
    s.dark = isDarkPalette(palette);
    s.background = palette.color(QPalette::Base);
    s.foreground = palette.color(QPalette::Text);
    s.grid = s.dark ? QColor(255, 255, 255, 40) : QColor(0, 0, 0, 30);
    return s;
}

ChartStyle lightChartStyle() {
    return {false, QColor(Qt::white), QColor(20, 20, 20), QColor(0, 0, 0, 30)};
}

QColor seriesColor(int index, bool dark) {
    // Tableau 10 (distinguishable for most colour-blind readers) and four more of Dark2 / Tableau 20b
    // that stay apart from them; a lighter variant of each on dark backgrounds.
    static const std::array<QRgb, kPaletteSize> light{0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd,
                                                      0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22, 0x17becf,
                                                      0x393b79, 0xa6761d, 0x1b9e77, 0x843c39};
    static const std::array<QRgb, kPaletteSize> darkSet{0x5fa8e8, 0xffa54f, 0x66cc66, 0xff6b6b, 0xc39bf0,
                                                        0xc49c94, 0xf7b6d2, 0xc7c7c7, 0xdbdb8d, 0x6fe3f0,
                                                        0x9c9ede, 0xe6b15a, 0x4fd1a8, 0xe7969c};
    const auto i = static_cast<std::size_t>(index < 0 ? 0 : index) % light.size();
    return QColor::fromRgb(dark ? darkSet[i] : light[i]);
}

std::vector<int> distinctColorSlots(const std::vector<int>& keys) {
    std::map<int, int> slotOf; // key -> slot
    std::set<int> taken;
    auto wrap = [](int k) { return ((k % kPaletteSize) + kPaletteSize) % kPaletteSize; };
    // First pass: every key whose own slot is free keeps it (stable across charts).
    for (int key : keys)
        if (!slotOf.count(key) && !taken.count(wrap(key))) {
            slotOf[key] = wrap(key);
            taken.insert(wrap(key));
        }
    // Second pass: the others take the next free slot; past the palette, the next round.
    int next = 0;
    for (int key : keys) {
        if (slotOf.count(key)) continue;
        while (taken.count(next))
            ++next;
        slotOf[key] = next;
        taken.insert(next);
    }
    std::vector<int> out;
    out.reserve(keys.size());
    for (int key : keys)
        out.push_back(slotOf[key]);
    return out;
}

int paletteRound(int slot) {
    return slot < 0 ? 0 : slot / kPaletteSize;
}

void applyChartStyle(QChart& chart, const ChartStyle& s) {
    chart.setTheme(s.dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart.setAnimationOptions(QChart::NoAnimation);
    chart.setBackgroundBrush(s.background);
    chart.setBackgroundRoundness(0);
    chart.setTitleBrush(s.foreground);
    chart.legend()->setLabelColor(s.foreground);
    QFont title = chart.titleFont();
    title.setPointSizeF(11);
    title.setBold(true);
    chart.setTitleFont(title);
}

} // namespace rnnprof::gui
