#include "engine/backend.h"

#include "engine/error.h"
#include "engine/host_memory.h"

#include <sstream>

namespace rnnprof {

void BackendRegistry::add(std::unique_ptr<Backend> backend) {
    m_backends.push_back(std::move(backend));
}

const Backend* BackendRegistry::find(std::string_view id) const {
    for (const auto& b : m_backends)
        if (b->id() == id) return b.get();
    return nullptr;
}

std::vector<const Backend*> BackendRegistry::all() const {
    std::vector<const Backend*> out;
    for (const auto& b : m_backends)
        out.push_back(b.get());
    return out;
}

std::vector<std::string> BackendRegistry::ids() const {
    std::vector<std::string> out;
    for (const auto& b : m_backends)
        out.emplace_back(b->id());
    return out;
}

Verdict assess(const Backend& backend, const Problem& problem) {
    auto refuse = [](ErrorKind kind, std::string reason) { return Verdict{kind, std::move(reason), {}}; };
    if (const auto issues = validate(problem.config, problem.shape); !issues.empty())
        return refuse(ErrorKind::InvalidConfig, joinIssues(issues));
    if (const Availability a = backend.availability(); !a.available)
        return refuse(ErrorKind::DeviceUnavailable, a.reason);
    if (const auto reasons = backend.unsupportedReasons(problem.config, problem.mode); !reasons.empty()) {
        std::string text;
        for (const auto& r : reasons)
            text += (text.empty() ? "" : " ") + r;
        return refuse(ErrorKind::Unsupported, text);
    }
    Verdict v;
    v.footprint = backend.estimateMemory(problem);
    if (!v.footprint.onDevice) {
        try {
            if (const auto available = availableHostMemory())
                requireFits(v.footprint.total(), *available, describePoint(backend.id(), problem));
        } catch (const Error& e) {
            v.refusal = e.kind();
            v.reason = e.what();
        }
    }
    return v;
}

std::unique_ptr<Session> Backend::prepare(const Problem& problem) const {
    return prepare(problem, assess(*this, problem));
}

std::unique_ptr<Session> Backend::prepare(const Problem& problem, const Verdict& verdict) const {
    if (!verdict.ready()) {
        // An unavailable backend names itself: a caller of prepare() may not know which it asked.
        const bool unavailable = *verdict.refusal == ErrorKind::DeviceUnavailable;
        throw Error(*verdict.refusal,
                    unavailable ? std::string(id()) + " unavailable: " + verdict.reason : verdict.reason);
    }
    return makeSession(problem, verdict.footprint);
}

std::string describePoint(std::string_view backendId, const Problem& problem) {
    return std::string(backendId) + " at batch " + std::to_string(problem.shape.batch) + ", seq_len " +
           std::to_string(problem.shape.seqLen);
}

} // namespace rnnprof
