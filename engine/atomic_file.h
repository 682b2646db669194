#pragma once
// Atomic file replacement: the content goes to a temporary file beside the target, is flushed to
// disk, then renamed over the target. A reader sees the old file or the new one, never a part.
#include <functional>
#include <string>
#include <string_view>

namespace rnnprof {

// Writes all of `bytes` to an open descriptor (retrying short writes and EINTR); returns errno or 0.
[[nodiscard]] int writeAll(int fd, std::string_view bytes);

// Writes `bytes` to `path` (a new file when `exclusive`, never through a symbolic link at `path`;
// else created or truncated) and flushes it to disk. Returns 0, or the errno of the call that
// failed; a partial file may be left behind.
[[nodiscard]] int writeAndSync(const std::string& path, std::string_view bytes, bool exclusive);

// What writeFileAtomically() does with a symbolic link at `path`. A file the user named is written
// where its link points (Follow: the file it names is replaced, the link kept). A file a command
// makes inside an output folder replaces a link there (Replace), so that a link planted in the
// folder never sends the write elsewhere.
enum class LinkAtPath { Follow, Replace };

// Throws Error(Io) naming the path and the system's reason (disk full, read-only, no such
// folder); the target is then untouched and no temporary file is left behind. A link at `path` is
// treated as `link` says; an existing device, pipe or socket (/dev/null, /dev/stdout) that `path`
// names is written through, never replaced. The temporary file has an unpredictable name and is
// created exclusively, so a link planted at a guessable name in a shared folder is never written
// through.
void writeFileAtomically(const std::string& path, std::string_view bytes,
                         LinkAtPath link = LinkAtPath::Follow);

// The same for content made piece by piece: `produce` hands each piece, in order, to the function
// it is given, so that a large file is never held whole. An exception from `produce` leaves the
// target untouched and removes the temporary file.
using ByteSink = std::function<void(std::string_view)>;
void writeFileAtomically(const std::string& path, const std::function<void(const ByteSink&)>& produce,
                         LinkAtPath link = LinkAtPath::Follow);

} // namespace rnnprof
