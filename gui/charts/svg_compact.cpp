#include "gui/charts/svg_compact.h"

#include <QByteArrayList>
#include <QStringBuilder>

#include <cstring>
#include <optional>
#include <utility>
#include <vector>

namespace rnnprof::gui {
namespace {

constexpr char kOpen[] = "<g ";
constexpr char kClose[] = "</g>";
constexpr char kPolyline[] = "<polyline fill=\"none\" vector-effect=\"none\" points=\"";

bool isSpace(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

qsizetype skipSpace(const QByteArray& s, qsizetype at) {
    while (at < s.size() && isSpace(s[at]))
        ++at;
    return at;
}

// Where attribute `name` stands in `tag`: ` name="value"`, from the space before it to its closing
// quote; size 0 when the tag has none.
struct Span {
    qsizetype start = -1;
    qsizetype size = 0;
};

Span attributeSpan(const QByteArray& tag, const char* name) {
    const QByteArray key = QByteArray(" ") + name + "=\"";
    const qsizetype start = tag.indexOf(key);
    const qsizetype end = start < 0 ? -1 : tag.indexOf('"', start + key.size());
    return end < 0 ? Span{} : Span{start, end + 1 - start};
}

// The number in attribute `name` of `element`, or nullopt.
std::optional<double> numberAttribute(const QByteArray& element, const char* name) {
    const Span span = attributeSpan(element, name);
    const auto prefix = qsizetype(std::strlen(name)) + 3; // ` name="`
    bool ok = false;
    const double value =
        span.size == 0 ? 0.0 : element.mid(span.start + prefix, span.size - prefix - 1).toDouble(&ok);
    return ok ? std::optional<double>(value) : std::nullopt;
}

// A coordinate to a hundredth of a pixel, without trailing zeros: finer than any screen or print.
QByteArray number(double v) {
    QByteArray text = QByteArray::number(v, 'f', 2);
    while (text.endsWith('0'))
        text.chop(1);
    if (text.endsWith('.')) text.chop(1);
    return text == "-0" ? QByteArray("0") : text;
}

// A polyline's "x,y" point with both coordinates as number() writes them; as it was when it is not one.
QByteArray point(const QByteArray& xy) {
    const qsizetype comma = xy.indexOf(',');
    bool okX = false, okY = false;
    const double x = xy.left(comma).toDouble(&okX);
    const double y = xy.mid(comma + 1).toDouble(&okY);
    return comma > 0 && okX && okY ? number(x) + ',' + number(y) : xy;
}

// A group's opening tag split into its style (the tag without its transform) and the translation
// of its transform, when the transform is one (`matrix(1,0,0,1,tx,ty)`).
struct GroupTag {
    QByteArray style;
    bool translated = false;
    double tx = 0.0;
    double ty = 0.0;
};

GroupTag splitTranslation(const QByteArray& tag) {
    constexpr char kMatrix[] = " transform=\"matrix(1,0,0,1,";
    const qsizetype start = tag.indexOf(kMatrix);
    const qsizetype end = start < 0 ? -1 : tag.indexOf(")\"", start);
    if (end < 0) return {tag};
    const QList<QByteArray> parts =
        tag.mid(start + qsizetype(sizeof kMatrix - 1), end - start - qsizetype(sizeof kMatrix - 1))
            .split(',');
    bool okX = false, okY = false;
    GroupTag split{tag.left(start) + tag.mid(end + 2), true};
    if (parts.size() == 2) {
        split.tx = parts[0].toDouble(&okX);
        split.ty = parts[1].toDouble(&okY);
    }
    if (!okX || !okY) return {tag};
    return split;
}

// `content` drawn at (tx, ty) instead: possible when it is only circles (the markers QtCharts draws,
// each in a group of its own translation), whose centres move. Empty when it holds anything else.
QByteArray translatedCircles(const QByteArray& content, double tx, double ty) {
    QByteArray out;
    qsizetype at = skipSpace(content, 0);
    while (at < content.size()) {
        const qsizetype end = content.indexOf("/>", at);
        if (!content.mid(at).startsWith("<circle ") || end < 0) return {};
        const QByteArray element = content.mid(at, end + 2 - at);
        if (element.count('<') != 1 || element.count('=') != 3) return {};
        const auto cx = numberAttribute(element, "cx"), cy = numberAttribute(element, "cy"),
                   r = numberAttribute(element, "r");
        if (!cx || !cy || !r) return {};
        out += "<circle cx=\"" + number(*cx + tx) + "\" cy=\"" + number(*cy + ty) + "\" r=\"" + number(*r) +
               "\"/>\n";
        at = skipSpace(content, end + 2);
    }
    return out;
}

// `content` drawn at (tx, ty) instead, when it is one text element (an axis label, a legend entry):
// the translation moves onto the element. Empty when it holds anything else.
QByteArray translatedText(const QByteArray& content, double tx, double ty) {
    if (!content.startsWith("<text ") || !content.endsWith("</text>") || content.count("<text") != 1 ||
        content.count('<') != 2)
        return {};
    return "<text transform=\"translate(" + number(tx) + ',' + number(ty) + ")\"" + content.mid(5);
}

// Polylines drawn one after another in one style, as one path with a subpath for each: QtCharts
// draws a series' line a segment at a time. Each subpath keeps its own caps and joins, so the
// path strokes the same pixels as the polylines did.
QByteArray polylinesAsOnePath(const QByteArray& content) {
    QByteArray out;
    bool pathOpen = false;
    qsizetype at = 0;
    while (at < content.size()) {
        const qsizetype lineEnd = content.indexOf('\n', at);
        const qsizetype next = lineEnd < 0 ? content.size() : lineEnd + 1;
        const QByteArray line = content.mid(at, next - at).trimmed();
        at = next;
        const qsizetype pointsEnd = line.lastIndexOf("\" />");
        if (!line.startsWith(kPolyline) || pointsEnd < 0 || pointsEnd + 4 != line.size()) {
            if (pathOpen) out += "\"/>\n";
            pathOpen = false;
            if (!line.isEmpty()) out += line + '\n';
            continue;
        }
        const QList<QByteArray> points =
            line.mid(qsizetype(sizeof kPolyline - 1), pointsEnd - qsizetype(sizeof kPolyline - 1))
                .simplified()
                .split(' ');
        out += pathOpen ? "M" : "<path fill=\"none\" d=\"M";
        pathOpen = true;
        for (qsizetype i = 0; i < points.size(); ++i)
            out += (i == 1 ? "L" : i > 1 ? " " : "") + point(points[i]);
    }
    if (pathOpen) out += "\"/>\n";
    return out;
}

// A group's tag without its font attributes, which only text inside it reads.
QByteArray withoutFont(QByteArray tag) {
    for (const char* name : {"font-family", "font-size", "font-weight", "font-style"})
        if (const Span span = attributeSpan(tag, name); span.size > 0) tag.remove(span.start, span.size);
    return tag;
}

// The properties a text element inherits from its group: given again with the group's value, they
// can go. (Opacity 1 is also the initial value, which the document group does not change.)
constexpr const char* kInherited[] = {"fill",        "fill-opacity", "stroke",      "stroke-opacity",
                                      "font-family", "font-size",    "font-weight", "font-style"};

// `tag` (a group's or an element's opening tag) without attributes that repeat an inherited value:
// `inherited` holds the group's attributes (` name="value"` each), or nothing for a style group
// (the document group sets no opacity, so an opacity of 1 is the initial value).
QByteArray withoutRepeats(QByteArray tag, const QByteArray& inherited) {
    for (const char* name : kInherited) {
        const Span span = attributeSpan(tag, name);
        if (span.size == 0) continue;
        const QByteArray attribute = tag.mid(span.start, span.size);
        // An opacity of 1 where the group gives none is the initial value again.
        const bool initial = attribute.endsWith("opacity=\"1\"") && attributeSpan(inherited, name).size == 0;
        if (initial || (!inherited.isEmpty() && inherited.contains(attribute)))
            tag.remove(span.start, span.size);
    }
    return tag;
}

// `content` with each text element's repeats of the group `tag`'s inherited attributes removed.
QByteArray withoutInheritedRepeats(const QByteArray& content, const QByteArray& tag) {
    const QByteArray& inherited = tag;
    QByteArray out;
    qsizetype at = 0;
    for (qsizetype text = content.indexOf("<text "); text >= 0; text = content.indexOf("<text ", at)) {
        const qsizetype tagEnd = content.indexOf('>', text);
        if (tagEnd < 0) break;
        out += content.mid(at, text - at);
        out += withoutRepeats(content.mid(text, tagEnd - text), inherited);
        at = tagEnd;
    }
    out += content.mid(at);
    return out;
}

// Whether svg[from, to) opens a group ("<g" then a space, a line end or ">").
bool holdsGroup(const QByteArray& svg, qsizetype from, qsizetype to) {
    for (qsizetype at = svg.indexOf("<g", from); at >= 0 && at < to; at = svg.indexOf("<g", at + 2))
        if (at + 2 < svg.size() && (isSpace(svg[at + 2]) || svg[at + 2] == '>')) return true;
    return false;
}

} // namespace

QByteArray compactSvg(const QByteArray& svg) {
    // The document group: everything up to the end of its opening tag is kept as it is.
    const qsizetype document = svg.indexOf(kOpen);
    const qsizetype documentEnd = document < 0 ? -1 : svg.indexOf('>', document);
    if (documentEnd < 0) return svg;
    std::vector<std::pair<QByteArray, QByteArray>> groups; // opening tag, content
    qsizetype at = skipSpace(svg, documentEnd + 1);
    while (svg.mid(at, 3) == kOpen) {
        const qsizetype tagEnd = svg.indexOf('>', at);
        const qsizetype close = tagEnd < 0 ? -1 : svg.indexOf(kClose, tagEnd);
        if (close < 0) return svg;
        // A group inside a style group is not the generator's flat list: leave the file as it is.
        if (holdsGroup(svg, tagEnd, close)) return svg;
        QByteArray tag = svg.mid(at, tagEnd + 1 - at);
        QByteArray content = svg.mid(tagEnd + 1, close - tagEnd - 1).trimmed();
        at = skipSpace(svg, close + qsizetype(sizeof kClose - 1));
        if (content.isEmpty()) continue;
        if (const GroupTag split = splitTranslation(tag); split.translated)
            if (QByteArray moved = translatedCircles(content, split.tx, split.ty);
                !moved.isEmpty() || !(moved = translatedText(content, split.tx, split.ty)).isEmpty()) {
                tag = split.style;
                content = std::move(moved);
            }
        tag = tag.simplified(); // one space before every attribute, as attributeSpan() looks for them
        if (!content.contains("<text")) tag = withoutFont(tag);
        tag = withoutRepeats(tag, {}).replace(" transform=\"matrix(1,0,0,1,0,0)\"", "");
        if (!groups.empty() && groups.back().first == tag)
            groups.back().second += '\n' + content;
        else
            groups.emplace_back(std::move(tag), std::move(content));
    }
    // What follows the style groups must be the document group's end.
    if (svg.mid(at, 4) != kClose) return svg;
    QByteArray out = svg.left(documentEnd + 1);
    out += '\n';
    for (const auto& [tag, content] : groups)
        out += tag + '\n' + polylinesAsOnePath(withoutInheritedRepeats(content, tag)) + "</g>\n";
    out += svg.mid(at);
    return out;
}

} // namespace rnnprof::gui
