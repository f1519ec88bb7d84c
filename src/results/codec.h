// results/codec.h — RunRecord and every model record <-> JSON (nlohmann). Field names in
// JSON are the C++ member names (documented in docs/run-record.md); missing keys take the
// member's default, so older records load into newer code. Enums are lower-case strings.
// Definitions: codec.cpp, codec_record.cpp (via codec_define.h).
// May use: core, model, nlohmann_json.
#pragma once

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

#include "model/access_spec.h"
#include "model/cell.h"
#include "model/device.h"
#include "model/plan.h"
#include "model/purge.h"
#include "model/run_record.h"
#include "model/verdict.h"

// std::optional<T> <-> null or value.
namespace nlohmann {
template <typename T>
struct adl_serializer<std::optional<T>> {
  static void to_json(json& j, const std::optional<T>& v) {
    if (v) j = *v;
    else j = nullptr;
  }
  static void from_json(const json& j, std::optional<T>& v) {
    if (j.is_null()) v.reset();
    else v = j.get<T>();
  }
};

// Integers are read strictly: a value outside the member's range (-5 or 1e20 for a uint32_t),
// a fraction (2.5) or a non-number is a json type_error, i.e. a malformed record, never a
// silently wrapped value (nlohmann's default wraps negatives and makes out-of-range floats
// undefined behaviour; found by unit-tests/fuzz). Writing is nlohmann's own.
template <typename T>
struct adl_serializer<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  template <typename Json>
  static void to_json(Json& j, T v) {
    ::nlohmann::to_json(j, v);
  }
  template <typename Json>
  static void from_json(const Json& j, T& v) {
    using Limits = std::numeric_limits<T>;
    bool fits = false;
    if (const auto* u = j.template get_ptr<const typename Json::number_unsigned_t*>()) {
      fits = std::in_range<T>(*u);
      if (fits) v = static_cast<T>(*u);
    } else if (const auto* i = j.template get_ptr<const typename Json::number_integer_t*>()) {
      fits = std::in_range<T>(*i);
      if (fits) v = static_cast<T>(*i);
    } else if (const auto* d = j.template get_ptr<const typename Json::number_float_t*>()) {
      const double lo = Limits::is_signed ? -std::ldexp(1.0, Limits::digits) : 0.0;
      fits = std::isfinite(*d) && *d == std::trunc(*d) && *d >= lo && *d < std::ldexp(1.0, Limits::digits);
      if (fits) v = static_cast<T>(*d);
    } else {
      throw detail::type_error::create(302, std::string("type must be number, but is ") + j.type_name(), &j);
    }
    if (!fits)
      throw detail::type_error::create(302, "number " + j.dump() + " is not an integer in [" +
                                                std::to_string(Limits::min()) + ", " +
                                                std::to_string(Limits::max()) + "]", &j);
  }
};
}  // namespace nlohmann

// Each record's to_json/from_json is declared here and defined once, in codec.cpp (device,
// cell and purge records) and codec_record.cpp (plans, rounds, the run record): defining them
// inline here made every includer instantiate the whole codec (28 s to compile a 46-line file).
#define PTS_JSON_DECLARE(Type)                       \
  void to_json(nlohmann::json& j, const Type& value); \
  void from_json(const nlohmann::json& j, Type& value);

namespace pts::model {

NLOHMANN_JSON_SERIALIZE_ENUM(AccessPattern, {{AccessPattern::Random, "random"},
                                             {AccessPattern::Sequential, "sequential"}})
NLOHMANN_JSON_SERIALIZE_ENUM(TargetKind, {{TargetKind::NvmeNamespace, "nvme-namespace"},
                                          {TargetKind::BlockDevice, "block-device"},
                                          {TargetKind::File, "file"}})
NLOHMANN_JSON_SERIALIZE_ENUM(WriteCacheState, {{WriteCacheState::Unknown, "unknown"},
                                               {WriteCacheState::NotPresent, "no-volatile-cache"},
                                               {WriteCacheState::Enabled, "enabled"},
                                               {WriteCacheState::Disabled, "disabled"}})
NLOHMANN_JSON_SERIALIZE_ENUM(PurgeMethod, {{PurgeMethod::None, "none"},
                                           {PurgeMethod::SanitizeCrypto, "sanitize-crypto"},
                                           {PurgeMethod::SanitizeBlock, "sanitize-block"},
                                           {PurgeMethod::FormatCrypto, "format-crypto"},
                                           {PurgeMethod::FormatUser, "format-user"},
                                           {PurgeMethod::Discard, "discard"},
                                           {PurgeMethod::Recreate, "recreate"}})
NLOHMANN_JSON_SERIALIZE_ENUM(Metric, {{Metric::Iops, "iops"},
                                      {Metric::Mbps, "mbps"},
                                      {Metric::MeanLatencyNs, "mean_latency_ns"},
                                      {Metric::MaxLatencyNs, "max_latency_ns"}})
NLOHMANN_JSON_SERIALIZE_ENUM(RunState, {{RunState::Running, "running"},
                                        {RunState::Complete, "complete"},
                                        {RunState::Interrupted, "interrupted"},
                                        {RunState::Failed, "failed"}})

PTS_JSON_DECLARE(BlockSizeShare)
PTS_JSON_DECLARE(AccessZone)
PTS_JSON_DECLARE(ArSegmentation)
PTS_JSON_DECLARE(AccessSpec)
PTS_JSON_DECLARE(LatencySummary)
// A histogram bucket is stored as a pair [index, count] to keep the record compact.
PTS_JSON_DECLARE(HistogramBucket)
PTS_JSON_DECLARE(LatencyHistogramRecord)
PTS_JSON_DECLARE(ControllerIo)
PTS_JSON_DECLARE(SimulatedCell)
PTS_JSON_DECLARE(KernelCounters)
PTS_JSON_DECLARE(CompletionStats)
PTS_JSON_DECLARE(JobPlacement)
PTS_JSON_DECLARE(CellResult)
PTS_JSON_DECLARE(DeviceCapabilities)
PTS_JSON_DECLARE(HealthSummary)
PTS_JSON_DECLARE(PcieLink)
PTS_JSON_DECLARE(DeviceIdentity)
PTS_JSON_DECLARE(Consent)
PTS_JSON_DECLARE(WriteCacheSetting)
PTS_JSON_DECLARE(PurgeVerification)
PTS_JSON_DECLARE(PurgeRecord)
// A sub-test role is its name (model::role_name); an unknown name is a malformed record.
void to_json(nlohmann::json& j, const SubTestRole& role);
void from_json(const nlohmann::json& j, SubTestRole& role);
PTS_JSON_DECLARE(TrackingVariable)
PTS_JSON_DECLARE(CellPlan)
PTS_JSON_DECLARE(SubTestPlan)
PTS_JSON_DECLARE(WsatPlan)
PTS_JSON_DECLARE(HirPlan)
PTS_JSON_DECLARE(XsrGroup)
PTS_JSON_DECLARE(XsrPlan)
PTS_JSON_DECLARE(DirthPlan)
PTS_JSON_DECLARE(ReviewPreconditionPlan)
PTS_JSON_DECLARE(ProfileSource)
PTS_JSON_DECLARE(CurvePlan)
PTS_JSON_DECLARE(SweepPlan)
PTS_JSON_DECLARE(Finding)
PTS_JSON_DECLARE(JobSpec)
PTS_JSON_DECLARE(QosStep)
PTS_JSON_DECLARE(QosPlan)
PTS_JSON_DECLARE(IdleRecord)
PTS_JSON_DECLARE(TestPlan)
PTS_JSON_DECLARE(WindowAssessment)
PTS_JSON_DECLARE(TrackingVerdict)
PTS_JSON_DECLARE(SteadyStateVerdict)
PTS_JSON_DECLARE(PreconditionRecord)
PTS_JSON_DECLARE(RoundRecord)
PTS_JSON_DECLARE(CellWindowResult)
PTS_JSON_DECLARE(FailedCell)
PTS_JSON_DECLARE(SubTestRecord)
PTS_JSON_DECLARE(Deviation)
PTS_JSON_DECLARE(OperatorField)
PTS_JSON_DECLARE(Transition)
PTS_JSON_DECLARE(HostInfo)
PTS_JSON_DECLARE(SimulatedDriveInfo)
PTS_JSON_DECLARE(LockstepDrive)
PTS_JSON_DECLARE(LockstepInfo)
PTS_JSON_DECLARE(RunRecord)

}  // namespace pts::model

namespace pts::results {

/// Serialises a record as run.json text (pretty-printed, stable key order).
std::string run_record_to_json_text(const model::RunRecord& record);

}  // namespace pts::results
