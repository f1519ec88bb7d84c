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

std::optional<PurgeMethod> purge_method_from_name(std::string_view name) {
  for (PurgeMethod m : kAllPurgeMethods)
    if (name == purge_method_name(m)) return m;
  return std::nullopt;
}

}  // namespace pts::model
