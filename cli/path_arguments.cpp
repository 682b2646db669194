#include "cli/path_arguments.h"

#include <QFile>

#include <dirent.h>

#include <filesystem>
#include <memory>
#include <system_error>

namespace rnnprof::cli {
namespace {

constexpr char16_t kEscapeBase = 0xDC00; // U+DC80..U+DCFF hold the bytes 0x80..0xFF

// The length of the valid UTF-8 sequence at the start of `s`, or 0 when it is not one (a stray
// continuation byte, a cut-short sequence, an overlong form, a surrogate, above U+10FFFF).
std::size_t utf8SequenceAt(std::string_view s, char32_t& codePoint) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    const unsigned char lead = byte(0);
    std::size_t length = 0;
    char32_t min = 0;
    if (lead < 0x80) {
        codePoint = lead;
        return 1;
    }
    if ((lead & 0xE0) == 0xC0) {
        length = 2;
        codePoint = lead & 0x1F;
        min = 0x80;
    } else if ((lead & 0xF0) == 0xE0) {
        length = 3;
        codePoint = lead & 0x0F;
        min = 0x800;
    } else if ((lead & 0xF8) == 0xF0) {
        length = 4;
        codePoint = lead & 0x07;
        min = 0x10000;
    } else {
        return 0;
    }
    if (s.size() < length) return 0;
    for (std::size_t i = 1; i < length; ++i) {
        if ((byte(i) & 0xC0) != 0x80) return 0;
        codePoint = (codePoint << 6) | (byte(i) & 0x3F);
    }
    if (codePoint < min || codePoint > 0x10FFFF || (codePoint >= 0xD800 && codePoint <= 0xDFFF)) return 0;
    return length;
}

void appendUtf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out += char(c);
    } else if (c < 0x800) {
        out += char(0xC0 | (c >> 6));
        out += char(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += char(0xE0 | (c >> 12));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    } else {
        out += char(0xF0 | (c >> 18));
        out += char(0x80 | ((c >> 12) & 0x3F));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    }
}

// `bytes` decoded as UTF-8; each byte that is not part of a valid sequence is handed to
// `invalidByte(out, byte)`, which appends what stands for it.
template <class InvalidByte>
QString decodeUtf8(std::string_view bytes, InvalidByte invalidByte) {
    QString out;
    out.reserve(qsizetype(bytes.size()));
    while (!bytes.empty()) {
        char32_t c = 0;
        std::size_t length = utf8SequenceAt(bytes, c);
        if (length == 0) {
            invalidByte(out, static_cast<unsigned char>(bytes.front()));
            length = 1;
        } else {
            const char32_t ucs4[1] = {c};
            out.append(QString::fromUcs4(ucs4, 1));
        }
        bytes.remove_prefix(length);
    }
    return out;
}

struct DirCloser {
    void operator()(DIR* dir) const { closedir(dir); }
};

// The name of the one entry of folder `dir` (bytes) that Qt decodes to `shown`; `shown` in UTF-8
// when none or several do.
std::string entryShownAs(const std::string& dir, const QString& shown) {
    const std::unique_ptr<DIR, DirCloser> listing(opendir(dir.c_str()));
    std::string found;
    int matches = 0;
    if (listing)
        while (const dirent* entry = readdir(listing.get()))
            if (QFile::decodeName(entry->d_name) == shown && ++matches == 1) found = entry->d_name;
    return matches == 1 ? found : shown.toStdString();
}

} // namespace

QString argumentFromDecodedPath(const QString& path) {
    if (!path.contains(QChar::ReplacementCharacter)) return path;
    const QStringList names = path.split(QLatin1Char('/'));
    std::string bytes;
    for (qsizetype i = 0; i < names.size(); ++i) {
        if (i > 0) bytes += '/';
        const QString& name = names[i];
        if (!name.contains(QChar::ReplacementCharacter))
            bytes += name.toStdString();
        else
            bytes += entryShownAs(bytes.empty() ? std::string(".") : bytes, name);
    }
    return argumentFromBytes(bytes);
}

QString argumentFromBytes(std::string_view bytes) {
    return decodeUtf8(bytes,
                      [](QString& out, unsigned char b) { out.append(QChar(char16_t(kEscapeBase + b))); });
}

QStringList rawArguments(int argc, char** argv) {
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args.append(argumentFromBytes(argv[i]));
    return args;
}

QStringList commandArguments(int argc, char** argv, const char* command) {
    QStringList args = rawArguments(argc, argv);
    if (args.size() >= 2) args.removeAt(1);
    if (args.isEmpty()) args.append(QString());
    args[0] = QStringLiteral("rnnprof ") + QString::fromLatin1(command);
    return args;
}

std::string pathFromArgument(const QString& argument) {
    std::string out;
    for (qsizetype i = 0; i < argument.size(); ++i) {
        const char16_t unit = argument.at(i).unicode();
        if (QChar::isHighSurrogate(unit) && i + 1 < argument.size() &&
            QChar::isLowSurrogate(argument.at(i + 1).unicode())) {
            appendUtf8(out, QChar::surrogateToUcs4(unit, argument.at(i + 1).unicode()));
            ++i;
        } else if (unit >= kEscapeBase + 0x80 && unit <= kEscapeBase + 0xFF) {
            out += char(unit - kEscapeBase);
        } else if (QChar::isSurrogate(unit)) {
            appendUtf8(out, 0xFFFD);
        } else {
            appendUtf8(out, unit);
        }
    }
    return out;
}

QString absoluteArgument(const QString& argument) {
    std::error_code error;
    const std::filesystem::path absolute = std::filesystem::absolute(pathFromArgument(argument), error);
    if (error) return argument; // no working directory to resolve it against: as given
    return argumentFromBytes(absolute.lexically_normal().native());
}

QString readableArgument(const QString& argument) {
    return decodeUtf8(pathFromArgument(argument), [](QString& out, unsigned char b) {
        out += QStringLiteral("\\x%1").arg(int(b), 2, 16, QLatin1Char('0'));
    });
}

} // namespace rnnprof::cli
