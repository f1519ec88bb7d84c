// model/plan.cpp — see plan.h: the names of the sub-test roles.
#include "model/plan.h"

namespace pts::model {

namespace {

constexpr std::pair<SubTestRole, const char*> kRoles[] = {
    {SubTestRole::SteadyRounds, ""},
    {SubTestRole::WsatSamples, "wsat-samples"},
    {SubTestRole::HirWaitState, "hir-wait-state"},
    {SubTestRole::XsrGroups, "xsr-groups"},
    {SubTestRole::DirthSweep, "dirth-sweep"},
    {SubTestRole::DirthHistogram, "dirth-histogram"},
    {SubTestRole::ReviewPrecondition, "review-precondition"},
    {SubTestRole::CurvePoints, "curve-points"},
    {SubTestRole::SweepSteps, "sweep-steps"},
    {SubTestRole::QosSteps, "qos-steps"},
};

}  // namespace

const char* role_name(SubTestRole role) {
  for (const auto& [r, name] : kRoles)
    if (r == role) return name;
  return "?";
}

std::optional<SubTestRole> role_from_name(std::string_view name) {
  for (const auto& [r, n] : kRoles)
    if (name == n) return r;
  return std::nullopt;
}

std::string role_names() {
  std::string out;
  for (const auto& [r, n] : kRoles) out += (out.empty() ? "\"" : ", \"") + std::string(n) + "\"";
  return out;
}

}  // namespace pts::model
