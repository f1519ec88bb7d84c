// unit-tests/config/operator_fields_test.cpp — --meta / --lab: merge order, every problem at
// once with file:line, plain values only, keys checked.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <fstream>

#include "config/operator_fields.h"

namespace pts::config {
namespace {

std::string write_lab(const std::string& name, const std::string& text) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("pts-lab-" + std::to_string(::getpid()) + "-" + name)).string();
  std::ofstream(path) << text;
  return path;
}

TEST(OperatorFields, LabFileThenMetaWhichWins) {
  OperatorFieldArgs a;
  a.lab_file = write_lab("ok.toml", "tested_by = \"Acme Labs\"\nrack = 7\nsealed = true\n");
  a.meta = {"tested_by=J. Doe, Acme", "notes=a=b"};
  auto f = resolve_operator_fields(a);
  ASSERT_TRUE(f.ok()) << f.error().message();
  std::map<std::string, std::string> got;
  for (const auto& x : *f) got[x.key] = x.value;
  EXPECT_EQ(got["tested_by"], "J. Doe, Acme");  // --meta overrides the lab file
  EXPECT_EQ(got["rack"], "7");
  EXPECT_EQ(got["sealed"], "true");
  EXPECT_EQ(got["notes"], "a=b");  // the first '=' splits
  EXPECT_EQ(f->size(), 4u);
  std::filesystem::remove(a.lab_file);
}

TEST(OperatorFields, EveryProblemAtOnce) {
  OperatorFieldArgs a;
  a.lab_file = write_lab("bad.toml", "tested_by = \"Acme\"\n[site]\nroom = 4\n");
  a.meta = {"tested_by", "bad key=x", "=x"};
  auto f = resolve_operator_fields(a);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().kind, core::ErrorKind::BadInput);
  const std::string m = f.error().message();
  EXPECT_NE(m.find(a.lab_file + ":2: 'site' must be a plain value"), std::string::npos) << m;
  EXPECT_NE(m.find("--meta: 'tested_by' is not KEY=VALUE"), std::string::npos) << m;
  EXPECT_NE(m.find("--meta: 'bad key=x' has the key 'bad key'"), std::string::npos) << m;
  EXPECT_EQ(f.error().messages.size(), 4u);
  std::filesystem::remove(a.lab_file);
}

TEST(OperatorFields, SyntaxErrorNamesFileAndLine) {
  OperatorFieldArgs a;
  a.lab_file = write_lab("syntax.toml", "tested_by = \"Acme\"\nnand_type = TLC\n");
  auto f = resolve_operator_fields(a);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().message().rfind(a.lab_file + ":2: ", 0), 0u) << f.error().message();
  std::filesystem::remove(a.lab_file);
  EXPECT_NE(a.take("--lab", "other.toml").find("given twice"), std::string::npos);
}

}  // namespace
}  // namespace pts::config
