#pragma once
// What a backend toggle shows for the current configuration and modes: available, unavailable on
// this machine (with the backend's reason, e.g. "no NVIDIA driver"), ineligible (every reason from
// unsupportedReasons, e.g. cuDNN with activation=relu), or eligible for some modes only. An
// unavailable backend also lists why it would be ineligible, so the reasons show on any machine.
#include "engine/backend.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace rnnprof::gui {

enum class BackendStatus { Available, PartlyEligible, Ineligible, Unavailable };

struct BackendState {
    BackendStatus status = BackendStatus::Available;
    QString summary;     // one line for the toggle: "available", "unavailable: no NVIDIA driver", ...
    QStringList reasons; // every reason, for the tooltip
};

[[nodiscard]] BackendState backendState(const Availability& availability, const Backend& backend,
                                        const RnnConfig& config, const std::vector<Mode>& modes);
[[nodiscard]] QString toString(BackendStatus status);

} // namespace rnnprof::gui
