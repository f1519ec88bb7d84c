// model/purge.cpp — see purge.h.
#include "model/purge.h"

namespace pts::model {

std::string purge_method_name(PurgeMethod method) {
  switch (method) {
    case PurgeMethod::SanitizeCrypto: return "sanitize-crypto";
    case PurgeMethod::SanitizeBlock: return "sanitize-block";
    case PurgeMethod::FormatCrypto: return "format-crypto";
    case PurgeMethod::FormatUser: return "format-user";
    case PurgeMethod::Discard: return "discard";
    case PurgeMethod::Recreate: return "recreate";
    case PurgeMethod::None: return "none";
  }
  return "none";
}

bool purge_settled(const PurgeRecord& r) {
  if (r.accepted_by_operator) return true;
  if (!r.success) return false;
  return r.method == PurgeMethod::None || (r.verification.performed && r.verification.passed);
}

std::vector<std::pair<std::string, std::string>> purge_deviations(const PurgeRecord& r, const std::string& sub) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!purge_settled(r)) return out;  // it will be repeated; the repeat decides
  if (!r.is_snia_purge)
    out.emplace_back("purge-method", "Purge by " + purge_method_name(r.method) + " is not a SNIA purge (" + r.reason + ")");
  if (r.accepted_by_operator)
    out.emplace_back("purge-accepted", "Sub-test " + sub + ": the purge failed or could not be verified (" +
                                           r.status_text + ") and the operator accepted it (--accept-purge-failure)");
  const auto& v = r.verification;
  if (!v.performed || !v.passed)
    out.emplace_back("purge-unverified", "Sub-test " + sub + ": the purge was not verified (" +
                                             (v.detail.empty() ? std::string("no verification") : v.detail) + ")");
  return out;
}

std::optional<PurgeMethod> purge_method_from_name(std::string_view name) {
  for (PurgeMethod m : kAllPurgeMethods)
    if (name == purge_method_name(m)) return m;
  return std::nullopt;
}

}  // namespace pts::model
