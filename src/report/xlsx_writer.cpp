// report/xlsx_writer.cpp — see xlsx_writer.h. The page layout rules of docs/report.md
// ("Page layout"): a grid of kGridCols columns; the title rows (dates, test, SNIA / spec /
// sub-title / revision, DUT line with page label, operator fields, status banners) on every
// page; on report pages the four header columns, the first deviations, the caption bar, the
// content in template order and the numbered caption, printed as exactly one portrait page
// (print area + fit to 1 × 1). The Raw sheet prints landscape, fit to the page width (as many
// pages down as its rows need), repeating its title rows and table header on every page.
#include "report/xlsx_writer.h"

#include <xlsxwriter.h>

#include <algorithm>
#include <deque>
#include <cmath>
#include <map>

namespace pts::report {

namespace {

constexpr lxw_col_t kGridCols = 12;    // four header columns × (label + two value cells)
constexpr double kColWidth = 11.0;     // characters of the default font
constexpr int kColPx = 82;             // pixel width of such a column (Excel's rounding)
constexpr double kRowPt = 15.0;        // default row height (20 px)
constexpr double kLinePt = 11.0;       // one line of 8 pt header text
constexpr int kHeaderCharsPerValue = 30;  // a two-column value cell at 8 pt
constexpr int kCharsPerGridLine = 170;    // a full-width merged cell at 8 pt

lxw_color_t parse_color(const std::string& hex) {
  const auto rgb = static_cast<lxw_color_t>(std::stoul(hex.substr(1), nullptr, 16));
  return rgb == 0 ? static_cast<lxw_color_t>(LXW_COLOR_BLACK) : rgb;  // libxlsxwriter reads 0 as "automatic"
}

std::string footer_escape(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '&' ? std::string("&&") : std::string(1, c);
  return out;
}

int lines_for(const std::string& s, int chars_per_line) {
  // UTF-8: count characters, not bytes.
  size_t chars = 0;
  for (unsigned char c : s) chars += (c & 0xC0) != 0x80;
  return std::max(1, static_cast<int>((chars + chars_per_line - 1) / chars_per_line));
}

class Writer {
 public:
  explicit Writer(lxw_workbook* wb) : wb_(wb) {
    small_label_ = fmt([](lxw_format* f) { format_set_bold(f); format_set_font_size(f, 8); format_set_border(f, LXW_BORDER_THIN); format_set_align(f, LXW_ALIGN_VERTICAL_CENTER); format_set_text_wrap(f); });
    small_value_ = fmt([](lxw_format* f) { format_set_font_size(f, 8); format_set_border(f, LXW_BORDER_THIN); format_set_text_wrap(f); format_set_align(f, LXW_ALIGN_VERTICAL_CENTER); });
    test_bar_ = fmt([](lxw_format* f) { format_set_bold(f); format_set_font_size(f, 12); format_set_bg_color(f, 0xD8E4BC); format_set_align(f, LXW_ALIGN_CENTER); format_set_align(f, LXW_ALIGN_VERTICAL_CENTER); format_set_border(f, LXW_BORDER_THIN); });
    org_ = fmt([](lxw_format* f) { format_set_bold(f); format_set_font_size(f, 8); format_set_text_wrap(f); format_set_align(f, LXW_ALIGN_CENTER); format_set_align(f, LXW_ALIGN_VERTICAL_CENTER); format_set_border(f, LXW_BORDER_THIN); });
    subtitle_ = fmt([](lxw_format* f) { format_set_bold(f); format_set_font_size(f, 11); format_set_font_color(f, LXW_COLOR_WHITE); format_set_bg_color(f, 0x595959); format_set_align(f, LXW_ALIGN_CENTER); format_set_align(f, LXW_ALIGN_VERTICAL_CENTER); format_set_text_wrap(f); });
    bad_banner_ = fmt([](lxw_format* f) { format_set_bold(f); format_set_font_color(f, 0xC00000); format_set_bg_color(f, 0xFFF2CC); format_set_font_size(f, 9); });
    good_banner_ = fmt([](lxw_format* f) { format_set_bold(f); format_set_font_color(f, 0x375623); format_set_bg_color(f, 0xE2EFDA); format_set_font_size(f, 9); });
    const lxw_color_t section_colors[4] = {0xFCE4D6, 0xDDEBF7, 0xE2EFDA, 0xE4DFEC};
    for (int k = 0; k < 4; ++k) {
      const lxw_color_t col = section_colors[k];
      section_[k] = fmt([col](lxw_format* f) { format_set_bold(f); format_set_font_size(f, 9); format_set_bg_color(f, col); format_set_align(f, LXW_ALIGN_CENTER); format_set_border(f, LXW_BORDER_THIN); });
      section_label_[k] = fmt([col](lxw_format* f) { format_set_bold(f); format_set_font_size(f, 8); format_set_bg_color(f, col); format_set_border(f, LXW_BORDER_THIN); format_set_align(f, LXW_ALIGN_VERTICAL_CENTER); format_set_text_wrap(f); });
    }
    deviation_ = fmt([](lxw_format* f) { format_set_text_wrap(f); format_set_font_color(f, 0x9C5700); format_set_font_size(f, 8); format_set_align(f, LXW_ALIGN_VERTICAL_TOP); });
    caption_bar_ = fmt([](lxw_format* f) { format_set_bold(f); format_set_font_size(f, 11); format_set_bg_color(f, 0xFFFF00); format_set_align(f, LXW_ALIGN_CENTER); format_set_align(f, LXW_ALIGN_VERTICAL_CENTER); format_set_border(f, LXW_BORDER_THIN); });
    caption_ = fmt([](lxw_format* f) { format_set_bold(f); format_set_font_size(f, 11); format_set_align(f, LXW_ALIGN_CENTER); });
    table_caption_ = fmt([](lxw_format* f) { format_set_bold(f); format_set_font_size(f, 9); });
    th_ = fmt([](lxw_format* f) {
      format_set_bold(f); format_set_font_size(f, 9); format_set_bg_color(f, 0xDDEBF7); format_set_border(f, LXW_BORDER_THIN);
      format_set_text_wrap(f); format_set_align(f, LXW_ALIGN_CENTER); format_set_align(f, LXW_ALIGN_VERTICAL_CENTER);
    });
    note_ = fmt([](lxw_format* f) { format_set_italic(f); format_set_font_size(f, 8); format_set_font_color(f, 0x595959); });
  }

  /// A data cell's format; `wrap` for text in merged (wide) cells only, so the Raw sheet's
  /// rows keep one line each and its page breaks hold.
  lxw_format* number_format(const std::string& nf, bool wrap) {
    const std::string key = nf + (wrap ? "\x01" : "");
    auto it = numbers_.find(key);
    if (it != numbers_.end()) return it->second;
    lxw_format* f = workbook_add_format(wb_);
    format_set_border(f, LXW_BORDER_THIN);
    format_set_font_size(f, 9);
    if (wrap) format_set_text_wrap(f);
    if (!nf.empty()) format_set_num_format(f, nf.c_str());
    return numbers_[key] = f;
  }

  core::Status page(const Page& p) {
    lxw_worksheet* ws = workbook_add_worksheet(wb_, p.sheet_name.c_str());
    if (!ws) return core::Error(core::ErrorKind::Internal, "cannot add sheet '" + p.sheet_name + "'");
    heights_.clear();
    lxw_col_t widest = kGridCols;
    for (const auto& t : p.tables) widest = std::max(widest, table_width(t));
    worksheet_set_column(ws, 0, static_cast<lxw_col_t>(widest - 1), kColWidth, nullptr);
    worksheet_set_default_row(ws, kRowPt, LXW_FALSE);  // so LibreOffice and Excel agree on heights
    worksheet_set_paper(ws, 9);  // A4
    const std::string footer = "&L&8" + footer_escape(p.header.test_page + " — " + p.sheet_name) + "&R&8" +
                               footer_escape(p.header.page_label);
    worksheet_set_footer(ws, footer.c_str());

    const lxw_row_t title_end = title_rows(ws, p.header);
    worksheet_freeze_panes(ws, title_end, 0);
    if (p.kind == PageKind::Raw) return raw_page(ws, p, title_end, widest);

    lxw_row_t row = title_end;
    if (!p.header.sections.empty()) row = sections(ws, p.header, row);
    for (const auto& d : p.header.deviation_lines) {
      set_height(ws, row, kLinePt * lines_for(d, kCharsPerGridLine) + 2);
      merged(ws, row++, 0, kGridCols - 1, d, deviation_);
    }
    set_height(ws, row, 20);
    merged(ws, row++, 0, kGridCols - 1, p.title, caption_bar_);
    ++row;
    // Printed content in template order; chart-only data below the print area.
    struct Item {
      int order;
      bool is_table;
      size_t index;
    };
    std::vector<Item> items;
    for (size_t i = 0; i < p.tables.size(); ++i)
      if (p.tables[i].printed) items.push_back({p.tables[i].order, true, i});
    for (size_t i = 0; i < p.charts.size(); ++i) items.push_back({p.charts[i].spec.source_line, false, i});
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.order < b.order; });
    std::vector<lxw_row_t> table_row(p.tables.size()), chart_row(p.charts.size());
    for (const auto& it : items) {
      if (it.is_table) {
        table_row[it.index] = row;
        row += table_rows(p.tables[it.index]);
      } else {
        chart_row[it.index] = row;
        row += chart_rows(p.charts[it.index]);
      }
    }
    set_height(ws, row, 20);
    merged(ws, row, 0, kGridCols - 1, p.caption, caption_);
    const lxw_row_t last_printed = row;
    row += 3;
    for (size_t i = 0; i < p.tables.size(); ++i)
      if (!p.tables[i].printed) {
        table_row[i] = row;
        row += table_rows(p.tables[i]);
      }
    std::vector<std::vector<lxw_col_t>> columns(p.tables.size());
    lxw_col_t print_cols = kGridCols;
    for (size_t i = 0; i < p.tables.size(); ++i) {
      columns[i] = table(ws, p.tables[i], table_row[i]);
      if (p.tables[i].printed) print_cols = std::max(print_cols, table_width(p.tables[i]));
    }
    for (size_t i = 0; i < p.charts.size(); ++i) {
      const size_t t = p.charts[i].table_index;
      chart(ws, p, p.charts[i], table_row[t] + 1, columns[t], chart_row[i], print_cols);
    }
    // One SNIA page = one printed page.
    worksheet_set_portrait(ws);
    worksheet_set_margins(ws, 0.4, 0.4, 0.4, 0.5);
    worksheet_center_horizontally(ws);
    worksheet_print_area(ws, 0, 0, last_printed, static_cast<lxw_col_t>(print_cols - 1));
    worksheet_fit_to_pages(ws, 1, 1);
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

  void set_height(lxw_worksheet* ws, lxw_row_t r, double pt) {
    worksheet_set_row(ws, r, pt, nullptr);
    heights_[r] = pt;
  }

  double height(lxw_row_t r) const {
    auto it = heights_.find(r);
    return it == heights_.end() ? kRowPt : it->second;
  }

  /// The title rows every printed page repeats; returns the first row after them.
  lxw_row_t title_rows(lxw_worksheet* ws, const PageHeader& h) {
    lxw_row_t r = 0;
    set_height(ws, r, 13);
    worksheet_write_string(ws, r, 0, "Test Run Date:", small_label_);
    merged(ws, r, 1, 3, h.run_start, small_value_);
    worksheet_write_string(ws, r, 4, "Run end:", small_label_);
    merged(ws, r, 5, 7, h.run_end, small_value_);
    worksheet_write_string(ws, r, 8, "Report date:", small_label_);
    merged(ws, r, 9, 11, h.report_date, small_value_);
    ++r;
    set_height(ws, r, 19);
    merged(ws, r++, 0, kGridCols - 1, h.test_page, test_bar_);
    set_height(ws, r, 26);
    worksheet_write_string(ws, r, 0, h.organisation.c_str(), org_);
    merged(ws, r, 1, 2, h.spec, org_);
    merged(ws, r, 3, 8, h.subtitle, subtitle_);
    worksheet_write_string(ws, r, 9, "Rev.", small_label_);
    merged(ws, r, 10, 11, h.revision, small_value_);
    ++r;
    set_height(ws, r, kLinePt * lines_for(h.dut_line, 100) + 3);
    worksheet_write_string(ws, r, 0, "DUT:", small_label_);
    merged(ws, r, 1, 8, h.dut_line, small_value_);
    worksheet_write_string(ws, r, 9, "Page", small_label_);
    merged(ws, r, 10, 11, h.page_label, small_value_);
    ++r;
    for (size_t i = 0; i < h.operator_fields.size(); i += 4) {
      int lines = 1;
      for (size_t k = 0; k < 4 && i + k < h.operator_fields.size(); ++k) {
        const auto& f = h.operator_fields[i + k];
        const auto c = static_cast<lxw_col_t>(3 * k);
        worksheet_write_string(ws, r, c, (f.label + ":").c_str(), small_label_);
        merged(ws, r, c + 1, c + 2, f.value, small_value_);
        lines = std::max({lines, lines_for(f.value, kHeaderCharsPerValue), lines_for(f.label, 15)});
      }
      set_height(ws, r++, kLinePt * lines + 2);
    }
    for (const auto& b : h.banners) {
      set_height(ws, r, 14);
      merged(ws, r++, 0, kGridCols - 1, b.text, b.alert ? bad_banner_ : good_banner_);
    }
    return r;
  }

  /// Test Platform | Device Under Test | Set-up Parameters | Test Parameters, side by side.
  lxw_row_t sections(lxw_worksheet* ws, const PageHeader& h, lxw_row_t r) {
    const size_t n = std::min<size_t>(h.sections.size(), 4);
    for (size_t k = 0; k < n; ++k)
      merged(ws, r, static_cast<lxw_col_t>(3 * k), static_cast<lxw_col_t>(3 * k + 2), h.sections[k].title, section_[k]);
    set_height(ws, r++, 13);
    size_t rows = 0;
    for (size_t k = 0; k < n; ++k) rows = std::max(rows, h.sections[k].fields.size());
    for (size_t i = 0; i < rows; ++i) {
      int lines = 1;
      for (size_t k = 0; k < n; ++k) {
        const auto c = static_cast<lxw_col_t>(3 * k);
        const auto& fields = h.sections[k].fields;
        const std::string label = i < fields.size() ? fields[i].label : "";
        const std::string value = i < fields.size() ? fields[i].value : "";
        worksheet_write_string(ws, r, c, label.c_str(), section_label_[k]);
        merged(ws, r, c + 1, c + 2, value, small_value_);
        lines = std::max({lines, lines_for(value, kHeaderCharsPerValue), lines_for(label, 15)});
      }
      set_height(ws, r++, kLinePt * lines + 2);
    }
    return r;
  }

  static lxw_col_t table_width(const Table& t) {
    lxw_col_t cols = 0;
    for (const auto& c : t.columns) cols = static_cast<lxw_col_t>(cols + std::max(1, c.span));
    return cols;
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
      if (c1 > c0) worksheet_merge_range(ws, row, c0, row, c1, "", f);  // formatted range, value in its first cell
      switch (cell.type) {
        case TableCell::Type::Number:
          if (std::isfinite(cell.number)) worksheet_write_number(ws, row, c0, cell.number, f);
          else worksheet_write_string(ws, row, c0, "not a number", f);
          break;
        case TableCell::Type::Text: worksheet_write_string(ws, row, c0, cell.text.c_str(), f); break;
        case TableCell::Type::Empty: worksheet_write_blank(ws, row, c0, f); break;
      }
    };
    worksheet_write_string(ws, r++, 0, t.caption.c_str(), table_caption_);
    set_height(ws, r, 30);
    for (size_t c = 0; c < t.columns.size(); ++c) put(r, c, TableCell::str(t.columns[c].header), th_);
    ++r;
    for (const auto& row : t.rows) {
      int lines = 1;
      for (size_t c = 0; c < row.size() && c < t.columns.size(); ++c) {
        const bool wide_text = row[c].type == TableCell::Type::Text && t.columns[c].span > 1;
        put(r, c, row[c], number_format(t.columns[c].number_format, wide_text));
        if (wide_text)  // only merged text cells wrap: a one-column text stays one line tall
          lines = std::max(lines, lines_for(row[c].text, 13 * std::max(1, t.columns[c].span)));
      }
      if (lines > 1) set_height(ws, r, 12.0 * lines + 2);
      ++r;
    }
    for (const auto& n : t.notes) worksheet_write_string(ws, r++, 0, n.c_str(), note_);
    return at;
  }

  /// The Raw sheet: title rows, then the table; landscape, fit to the page width, as many
  /// pages down as the rows need, the title rows and the table header repeated on each.
  core::Status raw_page(lxw_worksheet* ws, const Page& p, lxw_row_t title_end, lxw_col_t widest) {
    const Table& t = p.tables.front();
    const lxw_row_t caption_row = title_end;
    table(ws, t, caption_row);
    const lxw_row_t header_row = caption_row + 1;
    const lxw_row_t last = header_row + static_cast<lxw_row_t>(t.rows.size());
    worksheet_set_landscape(ws);
    worksheet_set_margins(ws, 0.3, 0.3, 0.6, 0.6);
    worksheet_fit_to_pages(ws, 1, 0);
    worksheet_repeat_rows(ws, 0, header_row);
    worksheet_print_area(ws, 0, 0, last, static_cast<lxw_col_t>(widest - 1));
    return core::ok_status();
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

  /// Labels every point of `s` with the text of its row in column `col` of `t` (the text itself:
  /// LibreOffice does not draw labels that refer to cells).
  void label_points(lxw_chart_series* s, const Table& t, size_t col) {
    auto& texts = label_texts_.emplace_back();
    auto& labels = label_structs_.emplace_back();
    for (const auto& row : t.rows) texts.push_back(col < row.size() ? row[col].text : "");
    labels.resize(texts.size());
    std::vector<lxw_chart_data_label*> ptrs;
    for (size_t k = 0; k < texts.size(); ++k) {
      labels[k].value = texts[k].data();
      ptrs.push_back(&labels[k]);
    }
    ptrs.push_back(nullptr);
    chart_series_set_labels(s);
    chart_series_set_labels_custom(s, ptrs.data());
    chart_series_set_labels_position(s, LXW_CHART_LABEL_POSITION_ABOVE);
  }

  /// Inserts chart `c` at row `r`, drawing the table whose header row is `header_row` and
  /// whose columns start at sheet columns `at`; at most `cols` grid columns wide.
  void chart(lxw_worksheet* ws, const Page& p, const Chart& c, lxw_row_t header_row,
             const std::vector<lxw_col_t>& at, lxw_row_t r, lxw_col_t cols) {
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
    size_t first_drawn = 0;
    size_t label_col = 0;  // the column labelling each point (0: none)
    bool labelled = false;
    for (size_t col = 1; col < t.columns.size(); ++col)
      if (!c.spec.point_labels.empty() && t.columns[col].key == c.spec.point_labels) label_col = col;
    for (size_t col = 1; col < t.columns.size(); ++col) {
      const auto& drawn = c.spec.series;
      if (col == label_col || (!drawn.empty() && std::find(drawn.begin(), drawn.end(), t.columns[col].key) == drawn.end()))
        continue;
      if (!first_drawn) first_drawn = col;
      lxw_chart_series* s = chart_add_series(ch, nullptr, nullptr);
      chart_series_set_categories(s, sheet, first, at[0], last, at[0]);
      chart_series_set_values(s, sheet, first, at[col], last, at[col]);
      chart_series_set_name_range(s, sheet, header_row, at[col]);
      apply_style(s, c.spec, style_for(c.spec, t.columns[col].key));
      if (label_col && !labelled) label_points(s, t, label_col);  // the first line drawn only
      labelled = labelled || label_col;
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
      // The x axis spans exactly the Rounds of the table (a window plot: the window's Rounds).
      chart_axis_set_major_unit(ch->x_axis, 1);
      chart_axis_set_min(ch->x_axis, t.rows.front()[0].number);
      chart_axis_set_max(ch->x_axis, t.rows.back()[0].number);
      chart_axis_set_num_format(ch->x_axis, "0");
    }
    if (c.spec.y_range_from_data) set_y_range(ch, t);
    const size_t y_col = first_drawn ? first_drawn : 1;
    if (!t.columns[y_col].number_format.empty())
      chart_axis_set_num_format(ch->y_axis, t.columns[y_col].number_format.c_str());
    chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
    const int page_px = kColPx * static_cast<int>(cols);
    const int width_px = c.spec.width_px > 0 ? std::min(c.spec.width_px, page_px) : page_px;
    lxw_chart_options opt{};
    opt.x_scale = width_px / 480.0;
    opt.y_scale = c.spec.height_px / 288.0;
    opt.object_position = LXW_OBJECT_MOVE_AND_SIZE;
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
  std::deque<std::vector<std::string>> label_texts_;  ///< point labels, alive until the workbook closes
  std::deque<std::vector<lxw_chart_data_label>> label_structs_;
  lxw_format *small_label_, *small_value_, *test_bar_, *org_, *subtitle_, *bad_banner_, *good_banner_,
      *section_[4], *section_label_[4], *deviation_, *caption_bar_, *caption_, *table_caption_, *th_, *note_;
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
