// report/layout.cpp — see layout.h.
#include "report/layout.h"

#include <algorithm>
#include <cctype>

#include "report/header_block.h"
#include "report/summary_page.h"
#include "report/record_view.h"
#include "report/tables.h"

namespace pts::report {

namespace {

struct Placeholders {
  std::string subtest, subtest_title, tracking, index, unit;
};

std::string expand(std::string s, const Placeholders& ph) {
  const std::pair<const char*, const std::string*> keys[] = {{"{subtest}", &ph.subtest},
                                                             {"{subtest_title}", &ph.subtest_title},
                                                             {"{tracking}", &ph.tracking},
                                                             {"{index}", &ph.index},
                                                             {"{unit}", &ph.unit}};
  for (const auto& [key, value] : keys) {
    const std::string k = key;
    for (size_t pos = s.find(k); pos != std::string::npos; pos = s.find(k, pos + value->size()))
      s.replace(pos, k.size(), *value);
  }
  return s;
}

struct PageScope {
  Scope scope;
  Placeholders ph;
};

std::vector<PageScope> expand_scopes(const model::RunRecord& rec, const SheetSpec& sheet, int& tracking_index) {
  std::vector<PageScope> out;
  const auto& subs = rec.plan.subtests;
  auto titled = [](const model::SubTestPlan& p) { return p.title.empty() ? p.id : p.title; };
  // A sheet with a `role` covers only the sub-tests its procedure gave that role.
  auto in_role = [&](size_t i) { return sheet.any_role || subs[i].role == sheet.role; };
  switch (sheet.repeat) {
    case SheetRepeat::Once: {
      PageScope ps;
      ps.scope.record = &rec;
      for (size_t i = 0; i < subs.size(); ++i)
        if (in_role(i)) ps.scope.subtests.push_back(i);
      if (ps.scope.subtests.size() == 1) {
        const auto& only = subs[ps.scope.subtests[0]];
        ps.ph = {only.id, titled(only), "", "", ""};
      }
      out.push_back(std::move(ps));
      break;
    }
    case SheetRepeat::Subtest:
      for (size_t i = 0; i < subs.size(); ++i) {
        if (!in_role(i)) continue;
        PageScope ps;
        ps.scope.record = &rec;
        ps.scope.subtests = {i};
        ps.ph = {subs[i].id, titled(subs[i]), "", std::to_string(out.size() + 1), ""};  // numbered among its pages
        out.push_back(std::move(ps));
      }
      break;
    case SheetRepeat::Tracking:
      for (size_t i = 0; i < subs.size(); ++i) {
        if (!in_role(i)) continue;
        for (const auto& tv : subs[i].tracking) {
          PageScope ps;
          ps.scope.record = &rec;
          ps.scope.subtests = {i};
          ps.scope.tracking_subtest = i;
          ps.scope.tracking = &tv;
          ps.ph = {subs[i].id, titled(subs[i]), tv.label.empty() ? tv.cell_id : tv.label,
                   std::to_string(++tracking_index), tracking_unit(tv.metric).unit};
          out.push_back(std::move(ps));
        }
      }
      break;
  }
  return out;
}

}  // namespace

std::string sheet_name(const std::string& wanted, const std::vector<Page>& existing) {
  std::string base;
  for (char c : wanted) base += std::string("[]:*?/\\").find(c) == std::string::npos ? c : '-';
  if (base.empty()) base = "Sheet";
  auto taken = [&](const std::string& n) {
    for (const auto& p : existing)
      if (p.sheet_name.size() == n.size() &&
          std::equal(n.begin(), n.end(), p.sheet_name.begin(),
                     [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) ==
                                                 std::tolower(static_cast<unsigned char>(b)); }))
        return true;
    return false;
  };
  // Truncate on a UTF-8 character boundary (xlsx counts characters; staying ≤ 31 bytes is safe).
  auto cut = [](std::string s, size_t max) {
    if (s.size() <= max) return s;
    size_t n = max;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    return s.substr(0, n);
  };
  std::string name = cut(base, 31);
  for (int i = 2; taken(name); ++i) {
    const std::string suffix = " (" + std::to_string(i) + ")";
    name = cut(base, 31 - suffix.size()) + suffix;
  }
  return name;
}

namespace {

PageKind page_kind(const SheetSpec& sheet) {
  for (const auto& t : sheet.tables)
    if (t.kind == TableKind::Raw) return PageKind::Raw;
  return PageKind::Report;
}

/// The first kHeaderDeviations deviations, then a pointer to the Deviations page.
std::vector<std::string> deviation_lines(const std::vector<std::string>& all, bool has_page) {
  if (all.empty()) return {"Deviations from the specification: none."};
  std::vector<std::string> out;
  for (size_t i = 0; i < all.size() && i < kHeaderDeviations; ++i) out.push_back(all[i]);
  if (has_page)
    out.push_back("… and " + std::to_string(all.size() - kHeaderDeviations) +
                  " more deviations: see the Deviations page.");
  return out;
}

Page deviations_page(const model::RunRecord& rec) {
  Page page;
  page.kind = PageKind::Deviations;
  page.title = "Deviations from the Specification";
  page.tables.push_back(deviations_table(rec));
  return page;
}

}  // namespace

Document build_document(const model::RunRecord& rec, const ReportTemplate& tmpl, uint64_t report_wall_ns,
                        bool raw_pages) {
  Document doc;
  doc.title = tmpl.test_name + " — SNIA " + edition_label(rec.plan.pts_edition) + " report";
  doc.subject = rec.device.model + " " + rec.device.serial;
  const std::vector<std::string> deviations = deviation_texts(rec);
  const bool deviation_page = deviations.size() > kHeaderDeviations;
  Scope whole;
  whole.record = &rec;
  for (size_t i = 0; i < rec.plan.subtests.size(); ++i) whole.subtests.push_back(i);

  std::vector<Page> pages;
  pages.push_back(summary_page(rec, tmpl));
  if (deviation_page) pages.push_back(deviations_page(rec));
  int tracking_index = 0;
  auto add_page = [&](const SheetSpec& sheet, const PageScope& ps) {
    Page page;
    page.kind = page_kind(sheet);
    page.sheet_name = expand(sheet.name, ps.ph);
    page.header = build_header(rec, tmpl.test_name, ps.scope, report_wall_ns);
    page.title = expand(sheet.title, ps.ph);
    for (const auto& ts : sheet.tables) {
      Table t = build_table(ts, ps.scope);
      t.caption = expand(t.caption, ps.ph);
      page.tables.push_back(std::move(t));
    }
    for (const auto& cs : sheet.charts) {
      Chart c;
      c.spec = cs;
      c.spec.title = expand(cs.title, ps.ph);
      c.spec.x_title = expand(cs.x_title, ps.ph);
      c.spec.y_title = expand(cs.y_title, ps.ph);
      for (size_t i = 0; i < sheet.tables.size(); ++i)
        if (sheet.tables[i].id == cs.table) c.table_index = i;
      page.charts.push_back(std::move(c));
    }
    pages.push_back(std::move(page));
  };
  // Sheets in template order; a run of consecutive sheets of one group, sub-test by sub-test.
  for (size_t k = 0; k < tmpl.sheets.size();) {
    size_t end = k + 1;
    if (!tmpl.sheets[k].group.empty())
      while (end < tmpl.sheets.size() && tmpl.sheets[end].group == tmpl.sheets[k].group) ++end;
    std::vector<std::vector<PageScope>> scopes;
    size_t most = 0;
    for (size_t j = k; j < end; ++j) {
      const bool skip = !raw_pages && page_kind(tmpl.sheets[j]) == PageKind::Raw;
      scopes.push_back(skip ? std::vector<PageScope>{} : expand_scopes(rec, tmpl.sheets[j], tracking_index));
      most = std::max(most, scopes.back().size());
    }
    for (size_t i = 0; i < most; ++i)
      for (size_t j = 0; j < scopes.size(); ++j)
        if (i < scopes[j].size()) add_page(tmpl.sheets[k + j], scopes[j][i]);
    k = end;
  }
  // Every page: the header (summary and deviations pages too), a unique sheet name, the
  // page label, the caption numbered by page ("Plot 1.3 – …", "Table 1.4 – …").
  const size_t total = pages.size();
  for (size_t i = 0; i < total; ++i) {
    Page& page = pages[i];
    if (page.kind == PageKind::Summary || page.kind == PageKind::Deviations) {
      page.header = build_header(rec, tmpl.test_name, whole, report_wall_ns);
      page.header.sections.clear();
      page.sheet_name = page.kind == PageKind::Summary ? "Summary" : "Deviations";
    }
    page.sheet_name = sheet_name(page.sheet_name, doc.pages);
    page.header.subtitle = tmpl.subtitle.empty() ? tmpl.test_name : tmpl.subtitle;
    page.header.page_label = "Page " + std::to_string(i + 1) + " of " + std::to_string(total);
    if (page.kind == PageKind::Report) page.header.deviation_lines = deviation_lines(deviations, deviation_page);
    const bool plot = !page.charts.empty();
    page.caption = std::string(plot ? "Plot" : "Table") + " 1." + std::to_string(i + 1) + " – " + page.title;
    doc.pages.push_back(std::move(page));
  }
  return doc;
}

}  // namespace pts::report
