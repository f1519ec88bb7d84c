// report/xlsx_writer.cpp — see xlsx_writer.h. Sheet layout, top to bottom: title bar (frozen,
// repeated on printed pages), status banners, the header sections two by two, deviations,
// then each table (caption, header row, rows, notes) and the charts below them.
#include "report/xlsx_writer.h"

#include <xlsxwriter.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace pts::report {

namespace {

constexpr lxw_col_t kHeaderCols = 8;  // A..H: header blocks and most tables
constexpr double kColWidth = 15.0;
constexpr int kValueCharsPerLine = 60;  // a merged 3-column value cell at 9 pt
constexpr double kRowPt = 15.0;         // default row height
constexpr double kTableHeaderPt = 30.0;
constexpr double kHeaderLinePt = 12.0;  // one line of 9 pt header text
constexpr double kMarginIn = 0.5;       // top and bottom
// A4 landscape: 595 pt tall, less the margins, with 5 % to spare for the renderer's rounding.
constexpr double kPageHeightPt = (595.0 - 2 * kMarginIn * 72.0) * 0.95;

/// Tracks how full the current printed page is; every page repeats the title rows.
class Pager {
 public:
  Pager(double title_pt, double page_pt) : title_(title_pt), page_(page_pt), used_(title_pt) {}
  void add(double h) {
    if (used_ + h > page_) new_page();
    used_ += h;
  }
  /// True when a block of height h would cross the page end but could start a fresh page.
  bool would_split(double h) const { return used_ + h > page_ && used_ > title_ + 1.0; }
  void new_page() { used_ = title_; }

 private:
  double title_, page_, used_;
};

lxw_color_t parse_color(const std::string& hex) {
  const auto rgb = static_cast<lxw_color_t>(std::stoul(hex.substr(1), nullptr, 16));
  return rgb == 0 ? static_cast<lxw_color_t>(LXW_COLOR_BLACK) : rgb;  // libxlsxwriter reads 0 as "automatic"
}

class Writer {
 public:
  explicit Writer(lxw_workbook* wb) : wb_(wb) {
    title_ = fmt([](lxw_format* f) { format_set_bold(f); format_set_font_size(f, 12); });
    subtitle_ = fmt([](lxw_format* f) { format_set_bold(f); format_set_font_size(f, 13); format_set_font_color(f, 0x1F4E79); });
    right_ = fmt([](lxw_format* f) { format_set_align(f, LXW_ALIGN_RIGHT); format_set_bold(f); });
    bad_banner_ = fmt([](lxw_format* f) {
      format_set_bold(f); format_set_font_color(f, 0xC00000); format_set_bg_color(f, 0xFFF2CC);
      format_set_font_size(f, 12);
    });
    good_banner_ = fmt([](lxw_format* f) { format_set_bold(f); format_set_font_color(f, 0x375623); format_set_bg_color(f, 0xE2EFDA); });
    section_ = fmt([](lxw_format* f) { format_set_bold(f); format_set_bg_color(f, 0xD9E1F2); format_set_bottom(f, LXW_BORDER_THIN); });
    label_ = fmt([](lxw_format* f) { format_set_bold(f); format_set_align(f, LXW_ALIGN_VERTICAL_TOP); format_set_font_size(f, 9); });
    value_ = fmt([](lxw_format* f) { format_set_text_wrap(f); format_set_align(f, LXW_ALIGN_VERTICAL_TOP); format_set_font_size(f, 9); });
    deviation_ = fmt([](lxw_format* f) { format_set_text_wrap(f); format_set_font_color(f, 0x9C5700); format_set_font_size(f, 9); });
    caption_ = fmt([](lxw_format* f) { format_set_bold(f); format_set_font_size(f, 11); });
    th_ = fmt([](lxw_format* f) {
      format_set_bold(f); format_set_bg_color(f, 0xDDEBF7); format_set_border(f, LXW_BORDER_THIN);
      format_set_text_wrap(f); format_set_align(f, LXW_ALIGN_CENTER); format_set_align(f, LXW_ALIGN_VERTICAL_CENTER);
    });
    note_ = fmt([](lxw_format* f) { format_set_italic(f); format_set_font_color(f, 0x595959); });
  }

  lxw_format* number_format(const std::string& nf) {
    auto it = numbers_.find(nf);
    if (it != numbers_.end()) return it->second;
    lxw_format* f = workbook_add_format(wb_);
    format_set_border(f, LXW_BORDER_THIN);
    if (!nf.empty()) format_set_num_format(f, nf.c_str());
    return numbers_[nf] = f;
  }

  core::Status page(const Page& p) {
    lxw_worksheet* ws = workbook_add_worksheet(wb_, p.sheet_name.c_str());
    if (!ws) return core::Error(core::ErrorKind::Internal, "cannot add sheet '" + p.sheet_name + "'");
    heights_.clear();
    size_t widest = kHeaderCols;
    for (const auto& t : p.tables) {
      size_t cols = 0;
      for (const auto& c : t.columns) cols += static_cast<size_t>(std::max(1, c.span));
      widest = std::max(widest, cols);
    }
    worksheet_set_column(ws, 0, static_cast<lxw_col_t>(widest - 1), kColWidth, nullptr);
    worksheet_set_landscape(ws);
    worksheet_set_paper(ws, 9);  // A4
    worksheet_fit_to_pages(ws, 1, 0);
    worksheet_set_margins(ws, 0.4, 0.4, kMarginIn, kMarginIn);
    const std::string footer = "&L" + p.header.test_page + " — " + p.sheet_name + "&RPrinted page &P of &N";
    worksheet_set_footer(ws, footer.c_str());

    worksheet_set_default_row(ws, kRowPt, LXW_FALSE);  // so LibreOffice and Excel agree on heights
    lxw_row_t row = header(ws, p.header);
    // The header block fills the first printed page; the content starts on the next one, and
    // every page repeats the title rows. Tables and charts follow top to bottom in template
    // order; a block that does not fit on the rest of a page starts a new one.
    breaks_.back().push_back(row);
    struct Item {
      int order;
      bool is_table;
      size_t index;
    };
    std::vector<Item> items;
    for (size_t i = 0; i < p.tables.size(); ++i) items.push_back({p.tables[i].order, true, i});
    for (size_t i = 0; i < p.charts.size(); ++i) items.push_back({p.charts[i].spec.source_line, false, i});
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.order < b.order; });
    std::vector<lxw_row_t> table_row(p.tables.size()), chart_row(p.charts.size());
    Pager pager(title_rows_height_, kPageHeightPt);
    for (const auto& it : items) {
      const lxw_row_t n = it.is_table ? table_rows(p.tables[it.index]) : chart_rows(p.charts[it.index]);
      double h = 0;
      for (lxw_row_t k = 0; k < n; ++k) h += it.is_table && k == 1 ? kTableHeaderPt : kRowPt;
      if (pager.would_split(h)) {
        breaks_.back().push_back(row);
        pager.new_page();
      }
      for (lxw_row_t k = 0; k < n; ++k) pager.add(it.is_table && k == 1 ? kTableHeaderPt : kRowPt);
      (it.is_table ? table_row[it.index] : chart_row[it.index]) = row;
      row += n;
    }
    std::vector<std::vector<lxw_col_t>> columns(p.tables.size());
    for (size_t i = 0; i < p.tables.size(); ++i) columns[i] = table(ws, p.tables[i], table_row[i]);
    for (size_t i = 0; i < p.charts.size(); ++i) {
      const size_t t = p.charts[i].table_index;
      chart(ws, p, p.charts[i], table_row[t] + 1, columns[t], chart_row[i]);
    }
    if (!breaks_.back().empty()) {
      breaks_.back().push_back(0);  // the list is 0-terminated
      worksheet_set_h_pagebreaks(ws, breaks_.back().data());
    }
    breaks_.emplace_back();
    return core::ok_status();
  }

 private:
  template <typename F>
  lxw_format* fmt(F setup) {
    lxw_format* f = workbook_add_format(wb_);
    setup(f);
    return f;
  }

  void merged(lxw_worksheet* ws, lxw_row_t r, lxw_col_t c0, lxw_col_t c1, const std::string& s, lxw_format* f) {
    if (c0 == c1) worksheet_write_string(ws, r, c0, s.c_str(), f);
    else worksheet_merge_range(ws, r, c0, r, c1, s.c_str(), f);
  }

  static int lines_for(const std::string& s, int chars_per_line) {
    return std::max(1, static_cast<int>((s.size() + chars_per_line - 1) / chars_per_line));
  }

  double height(lxw_row_t r) const {
    auto it = heights_.find(r);
    return it == heights_.end() ? kRowPt : it->second;
  }

  void set_height(lxw_worksheet* ws, lxw_row_t r, double pt) {
    worksheet_set_row(ws, r, pt, nullptr);
    heights_[r] = pt;
  }

  lxw_row_t header(lxw_worksheet* ws, const PageHeader& h) {
    lxw_row_t r = 0;
    merged(ws, r, 0, 5, h.organisation, title_);
    merged(ws, r, 6, 7, h.revision, right_);
    ++r;
    set_height(ws, r, 20);
    merged(ws, r, 0, 6, h.test_page + " — " + h.subtitle, subtitle_);
    merged(ws, r, 7, 7, h.page_label, right_);
    ++r;
    for (const auto& b : h.banners) merged(ws, r++, 0, kHeaderCols - 1, b.text, b.alert ? bad_banner_ : good_banner_);
    worksheet_freeze_panes(ws, r, 0);
    worksheet_repeat_rows(ws, 0, r - 1);
    title_rows_ = r;
    title_rows_height_ = 0;
    for (lxw_row_t k = 0; k < r; ++k) title_rows_height_ += height(k);
    ++r;
    for (size_t s = 0; s < h.sections.size(); s += 2) {
      const HeaderSection* left = &h.sections[s];
      const HeaderSection* right = s + 1 < h.sections.size() ? &h.sections[s + 1] : nullptr;
      merged(ws, r, 0, 3, left->title, section_);
      if (right) merged(ws, r, 4, 7, right->title, section_);
      ++r;
      const size_t n = std::max(left->fields.size(), right ? right->fields.size() : 0);
      for (size_t i = 0; i < n; ++i) {
        int lines = 1;
        if (i < left->fields.size()) {
          worksheet_write_string(ws, r, 0, left->fields[i].label.c_str(), label_);
          merged(ws, r, 1, 3, left->fields[i].value, value_);
          lines = std::max(lines, lines_for(left->fields[i].value, kValueCharsPerLine));
        }
        if (right && i < right->fields.size()) {
          worksheet_write_string(ws, r, 4, right->fields[i].label.c_str(), label_);
          merged(ws, r, 5, 7, right->fields[i].value, value_);
          lines = std::max(lines, lines_for(right->fields[i].value, kValueCharsPerLine));
        }
        set_height(ws, r, kHeaderLinePt * lines + 1);
        ++r;
      }
    }
    merged(ws, r++, 0, kHeaderCols - 1, "Deviations from the specification", section_);
    if (h.deviations.empty()) merged(ws, r++, 0, kHeaderCols - 1, "None.", deviation_);
    for (const auto& d : h.deviations) {
      const int lines = lines_for(d, 150);
      set_height(ws, r, kHeaderLinePt * lines + 1);
      merged(ws, r++, 0, kHeaderCols - 1, d, deviation_);
    }
    return r + 1;
  }

  /// Rows a table occupies: caption, header row, rows, notes, one blank row.
  static lxw_row_t table_rows(const Table& t) {
    return static_cast<lxw_row_t>(3 + t.rows.size() + t.notes.size());
  }
  static lxw_row_t chart_rows(const Chart& c) {
    return static_cast<lxw_row_t>((c.spec.height_px + 19) / 20 + 1);
  }

  /// Writes caption, header row, rows and notes from row `r`; returns each table column's
  /// first sheet column (columns with span > 1 are merged cells).
  std::vector<lxw_col_t> table(lxw_worksheet* ws, const Table& t, lxw_row_t r) {
    std::vector<lxw_col_t> at;
    lxw_col_t col = 0;
    for (const auto& c : t.columns) {
      at.push_back(col);
      col = static_cast<lxw_col_t>(col + std::max(1, c.span));
    }
    auto put = [&](lxw_row_t row, size_t c, const TableCell& cell, lxw_format* f) {
      const lxw_col_t c0 = at[c], c1 = static_cast<lxw_col_t>(c0 + std::max(1, t.columns[c].span) - 1);
      if (c1 > c0) {  // merged: write the range formatted, then the value into its first cell
        worksheet_merge_range(ws, row, c0, row, c1, "", f);
      }
      switch (cell.type) {
        case TableCell::Type::Number:
          if (std::isfinite(cell.number)) worksheet_write_number(ws, row, c0, cell.number, f);
          else worksheet_write_string(ws, row, c0, "not a number", f);
          break;
        case TableCell::Type::Text: worksheet_write_string(ws, row, c0, cell.text.c_str(), f); break;
        case TableCell::Type::Empty: worksheet_write_blank(ws, row, c0, f); break;
      }
    };
    worksheet_write_string(ws, r++, 0, t.caption.c_str(), caption_);
    set_height(ws, r, kTableHeaderPt);
    for (size_t c = 0; c < t.columns.size(); ++c) put(r, c, TableCell::str(t.columns[c].header), th_);
    ++r;
    for (const auto& row : t.rows) {
      for (size_t c = 0; c < row.size() && c < t.columns.size(); ++c)
        put(r, c, row[c], number_format(t.columns[c].number_format));
      ++r;
    }
    for (const auto& n : t.notes) worksheet_write_string(ws, r++, 0, n.c_str(), note_);
    return at;
  }

  const SeriesStyle* style_for(const ChartSpec& spec, const std::string& key) {
    for (const auto& s : spec.styles)
      if (s.key == key) return &s;
    return nullptr;
  }

  static uint8_t dash_type(const std::string& d) {
    if (d == "dash") return LXW_CHART_LINE_DASH_DASH;
    if (d == "round_dot") return LXW_CHART_LINE_DASH_ROUND_DOT;
    if (d == "long_dash") return LXW_CHART_LINE_DASH_LONG_DASH;
    if (d == "dash_dot") return LXW_CHART_LINE_DASH_DASH_DOT;
    return LXW_CHART_LINE_DASH_SOLID;
  }

  static uint8_t marker_type(const std::string& m) {
    if (m == "none") return LXW_CHART_MARKER_NONE;
    if (m == "circle") return LXW_CHART_MARKER_CIRCLE;
    if (m == "diamond") return LXW_CHART_MARKER_DIAMOND;
    if (m == "square") return LXW_CHART_MARKER_SQUARE;
    if (m == "triangle") return LXW_CHART_MARKER_TRIANGLE;
    if (m == "x") return LXW_CHART_MARKER_X;
    return LXW_CHART_MARKER_AUTOMATIC;
  }

  void apply_style(lxw_chart_series* s, const ChartSpec& spec, const SeriesStyle* st) {
    if (!st) return;
    lxw_chart_line line{};
    if (!st->color.empty()) line.color = parse_color(st->color);
    line.none = st->line ? 0 : 1;
    line.width = st->width > 0 ? static_cast<float>(st->width) : 1.75f;
    line.dash_type = dash_type(st->dash);
    chart_series_set_line(s, &line);
    const std::string marker = st->marker.empty() && spec.type == ChartType::Scatter && st->line ? "none" : st->marker;
    if (!marker.empty()) chart_series_set_marker_type(s, marker_type(marker));
    if (!st->color.empty() && marker != "none" && !marker.empty()) {
      lxw_chart_fill fill{};
      fill.color = line.color;
      chart_series_set_marker_fill(s, &fill);
      lxw_chart_line ml{};
      ml.color = line.color;
      chart_series_set_marker_line(s, &ml);
      chart_series_set_marker_size(s, 8);
    }
  }

  /// Inserts chart `c` at row `r`, drawing the table whose header row is `header_row` and
  /// whose columns start at sheet columns `at`.
  void chart(lxw_worksheet* ws, const Page& p, const Chart& c, lxw_row_t header_row,
             const std::vector<lxw_col_t>& at, lxw_row_t r) {
    const Table& t = p.tables[c.table_index];
    if (t.rows.empty() || t.columns.size() < 2) {
      worksheet_write_string(ws, r, 0, ("(chart \"" + c.spec.title + "\" omitted: no data)").c_str(), note_);
      return;
    }
    uint8_t type = LXW_CHART_LINE;
    if (c.spec.type == ChartType::Scatter) type = LXW_CHART_SCATTER_STRAIGHT_WITH_MARKERS;
    if (c.spec.type == ChartType::Column) type = LXW_CHART_COLUMN;
    lxw_chart* ch = workbook_add_chart(wb_, type);
    const char* sheet = p.sheet_name.c_str();
    const lxw_row_t first = header_row + 1, last = header_row + static_cast<lxw_row_t>(t.rows.size());
    for (size_t col = 1; col < t.columns.size(); ++col) {
      lxw_chart_series* s = chart_add_series(ch, nullptr, nullptr);
      chart_series_set_categories(s, sheet, first, at[0], last, at[0]);
      chart_series_set_values(s, sheet, first, at[col], last, at[col]);
      chart_series_set_name_range(s, sheet, header_row, at[col]);
      apply_style(s, c.spec, style_for(c.spec, t.columns[col].key));
    }
    if (!c.spec.title.empty()) {
      chart_title_set_name(ch, c.spec.title.c_str());
      lxw_chart_font font{};
      font.size = 11;
      font.bold = LXW_EXPLICIT_FALSE;
      chart_title_set_name_font(ch, &font);
    }
    if (!c.spec.x_title.empty()) chart_axis_set_name(ch->x_axis, c.spec.x_title.c_str());
    if (!c.spec.y_title.empty()) chart_axis_set_name(ch->y_axis, c.spec.y_title.c_str());
    if (c.spec.x_log_base) chart_axis_set_log_base(ch->x_axis, static_cast<uint16_t>(c.spec.x_log_base));
    if (c.spec.y_log_base) chart_axis_set_log_base(ch->y_axis, static_cast<uint16_t>(c.spec.y_log_base));
    if (t.columns[0].key == "round" && c.spec.type == ChartType::Scatter) {
      chart_axis_set_major_unit(ch->x_axis, 1);
      chart_axis_set_min(ch->x_axis, t.rows.front()[0].number - 1);
      chart_axis_set_max(ch->x_axis, t.rows.back()[0].number + 1);
      chart_axis_set_num_format(ch->x_axis, "0");
    }
    if (c.spec.y_range_from_data) set_y_range(ch, t);
    if (!t.columns[1].number_format.empty()) chart_axis_set_num_format(ch->y_axis, t.columns[1].number_format.c_str());
    chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
    lxw_chart_options opt{};
    opt.x_scale = c.spec.width_px / 480.0;
    opt.y_scale = c.spec.height_px / 288.0;
    worksheet_insert_chart_opt(ws, r, 0, ch, &opt);
  }

  /// y axis from a little below the smallest to a little above the largest plotted value,
  /// on round numbers, so a window's spread is visible (a 0-based axis flattens it).
  static void set_y_range(lxw_chart* ch, const Table& t) {
    double lo = INFINITY, hi = -INFINITY;
    for (const auto& row : t.rows)
      for (size_t c = 1; c < row.size(); ++c)
        if (row[c].type == TableCell::Type::Number && std::isfinite(row[c].number)) {
          lo = std::min(lo, row[c].number);
          hi = std::max(hi, row[c].number);
        }
    if (!(lo <= hi)) return;
    const double span = hi > lo ? hi - lo : std::max(std::fabs(hi), 1e-12);
    const double step = std::pow(10.0, std::floor(std::log10(span / 4)));
    chart_axis_set_min(ch->y_axis, std::floor((lo - 0.05 * span) / step) * step);
    chart_axis_set_max(ch->y_axis, std::ceil((hi + 0.05 * span) / step) * step);
  }

  lxw_workbook* wb_;
  std::map<lxw_row_t, double> heights_;  // rows of the current sheet with a set height
  lxw_row_t title_rows_ = 0;             // frozen and repeated on every printed page
  double title_rows_height_ = 0;
  std::vector<std::vector<lxw_row_t>> breaks_{1};  // per sheet; must outlive workbook_close
  lxw_format *title_, *subtitle_, *right_, *bad_banner_, *good_banner_, *section_, *label_, *value_, *deviation_,
      *caption_, *th_, *note_;
  std::map<std::string, lxw_format*> numbers_;
};

}  // namespace

core::Status write_xlsx(const Document& doc, const std::string& path, uint64_t created_wall_ns) {
  lxw_workbook* wb = workbook_new(path.c_str());
  if (!wb) return core::Error(core::ErrorKind::Io, "cannot create workbook " + path);
  lxw_doc_properties props{};
  props.title = const_cast<char*>(doc.title.c_str());
  props.subject = const_cast<char*>(doc.subject.c_str());
  props.author = const_cast<char*>("ptsuite");
  props.comments = const_cast<char*>("SNIA Solid State Storage Performance Test Specification report");
  props.created = static_cast<time_t>(created_wall_ns / 1000000000ull);
  workbook_set_properties(wb, &props);
  Writer w(wb);
  core::Status st = core::ok_status();
  for (const auto& p : doc.pages) {
    st = w.page(p);
    if (!st) break;
  }
  const lxw_error err = workbook_close(wb);
  if (!st) return st;
  if (err != LXW_NO_ERROR)
    return core::Error(core::ErrorKind::Io, "cannot write " + path + ": " + lxw_strerror(err), errno);
  return core::ok_status();
}

}  // namespace pts::report
