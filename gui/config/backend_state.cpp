#include "gui/config/backend_state.h"

namespace rnnprof::gui {

QString toString(BackendStatus status) {
    switch (status) {
    case BackendStatus::Available:
        return QStringLiteral("available");
    case BackendStatus::PartlyEligible:
        return QStringLiteral("partly eligible");
    case BackendStatus::Ineligible:
        return QStringLiteral("ineligible");
    case BackendStatus::Unavailable:
        return QStringLiteral("unavailable");
    }
    return {};
}

BackendState backendState(const Availability& availability, const Backend& backend, const RnnConfig& config,
                          const std::vector<Mode>& modes) {
    BackendState s;
    QStringList eligibleModes, ineligibleModes;
    for (Mode mode : modes) {
        const QString name = QString::fromUtf8(rnnprof::toString(mode).data());
        const auto reasons = backend.unsupportedReasons(config, mode);
        if (reasons.empty()) {
            eligibleModes << name;
            continue;
        }
        ineligibleModes << name;
        for (const auto& r : reasons) {
            const QString text = QString::fromStdString(r);
            if (!s.reasons.contains(text)) s.reasons << text;
        }
    }
    if (!availability.available) {
        // Still say what would stop it here: a researcher on a laptop learns why cuDNN would refuse.
        s.status = BackendStatus::Unavailable;
        s.summary = QStringLiteral("unavailable: ") + QString::fromStdString(availability.reason);
        if (!s.reasons.isEmpty())
            s.summary += QStringLiteral("; also ineligible: ") + s.reasons.join(QStringLiteral("; "));
        s.reasons.prepend(QString::fromStdString(availability.reason));
        return s;
    }
    if (ineligibleModes.isEmpty()) {
        s.summary = QStringLiteral("available");
        return s;
    }
    if (eligibleModes.isEmpty()) {
        s.status = BackendStatus::Ineligible;
        s.summary = QStringLiteral("ineligible: ") + s.reasons.join(QStringLiteral("; "));
    } else {
        s.status = BackendStatus::PartlyEligible;
        s.summary =
            QStringLiteral("%1 only; %2: %3")
                .arg(eligibleModes.join(QStringLiteral(", ")), ineligibleModes.join(QStringLiteral(", ")),
                     s.reasons.join(QStringLiteral("; ")));
    }
    return s;
}

} // namespace rnnprof::gui
