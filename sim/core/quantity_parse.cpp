// Unit tables, parsing and canonical printing of quantities.
#include "sim/core/quantity_parse.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <optional>

#include "sim/core/error.hpp"

namespace codesim::core {
namespace {

// One accepted spelling: value = number x 10^exp10 x factor.
struct UnitSpelling {
  std::string_view text;
  Dimension dimension;
  int exp10;
  double factor;  // exact binary factor: 1, 1/8 for bits, 2^10n for KiB...
};

// Where a spelling is a size written in bits, or a size where a rate was meant.
enum class Confusion { none, bits_size, size_not_rate };

struct Classified {
  const UnitSpelling* unit = nullptr;
  Confusion confusion = Confusion::none;
};

constexpr double kKi = 1024.0;
constexpr double kMi = kKi * 1024.0;
constexpr double kGi = kMi * 1024.0;
constexpr double kTi = kGi * 1024.0;

using D = Dimension;
constexpr std::array kUnits = {
    UnitSpelling{"B", D::bytes, 0, 1.0},
    UnitSpelling{"KB", D::bytes, 3, 1.0},
    UnitSpelling{"kB", D::bytes, 3, 1.0},
    UnitSpelling{"MB", D::bytes, 6, 1.0},
    UnitSpelling{"GB", D::bytes, 9, 1.0},
    UnitSpelling{"TB", D::bytes, 12, 1.0},
    UnitSpelling{"PB", D::bytes, 15, 1.0},
    UnitSpelling{"KiB", D::bytes, 0, kKi},
    UnitSpelling{"MiB", D::bytes, 0, kMi},
    UnitSpelling{"GiB", D::bytes, 0, kGi},
    UnitSpelling{"TiB", D::bytes, 0, kTi},
    UnitSpelling{"s", D::seconds, 0, 1.0},
    UnitSpelling{"ms", D::seconds, -3, 1.0},
    UnitSpelling{"us", D::seconds, -6, 1.0},
    UnitSpelling{"\xC2\xB5s", D::seconds, -6, 1.0},  // µs
    UnitSpelling{"ns", D::seconds, -9, 1.0},
    UnitSpelling{"ps", D::seconds, -12, 1.0},
    UnitSpelling{"min", D::seconds, 0, 60.0},
    UnitSpelling{"h", D::seconds, 0, 3600.0},
    UnitSpelling{"FLOP", D::flops, 0, 1.0},
    UnitSpelling{"KFLOP", D::flops, 3, 1.0},
    UnitSpelling{"MFLOP", D::flops, 6, 1.0},
    UnitSpelling{"GFLOP", D::flops, 9, 1.0},
    UnitSpelling{"TFLOP", D::flops, 12, 1.0},
    UnitSpelling{"PFLOP", D::flops, 15, 1.0},
    UnitSpelling{"EFLOP", D::flops, 18, 1.0},
    UnitSpelling{"FLOPS", D::flops_per_second, 0, 1.0},
    UnitSpelling{"KFLOPS", D::flops_per_second, 3, 1.0},
    UnitSpelling{"MFLOPS", D::flops_per_second, 6, 1.0},
    UnitSpelling{"GFLOPS", D::flops_per_second, 9, 1.0},
    UnitSpelling{"TFLOPS", D::flops_per_second, 12, 1.0},
    UnitSpelling{"PFLOPS", D::flops_per_second, 15, 1.0},
    UnitSpelling{"EFLOPS", D::flops_per_second, 18, 1.0},
};

// Bit prefixes: "b" = 1 bit = 1/8 byte.
struct BitPrefix {
  std::string_view text;
  int exp10;
};
constexpr std::array kBitPrefixes = {BitPrefix{"b", 0},  BitPrefix{"Kb", 3}, BitPrefix{"kb", 3},
                                     BitPrefix{"Mb", 6}, BitPrefix{"Gb", 9}, BitPrefix{"Tb", 12}};

// Owned storage for synthesized rate spellings ("GBps", "GB/s", "Gbps", "GiB/s", ...).
struct RateTable {
  std::deque<std::string> names;  // deque: views into it stay valid as it grows
  std::vector<UnitSpelling> units;
  RateTable() {
    auto add = [this](std::string name, Dimension d, int exp10, double factor) {
      names.push_back(std::move(name));
      units.push_back(UnitSpelling{names.back(), d, exp10, factor});
    };
    for (const auto& u : kUnits) {
      if (u.dimension == D::bytes) {
        add(std::string(u.text) + "ps", D::bytes_per_second, u.exp10, u.factor);
        add(std::string(u.text) + "/s", D::bytes_per_second, u.exp10, u.factor);
      }
      if (u.dimension == D::flops) {
        add(std::string(u.text) + "/s", D::flops_per_second, u.exp10, u.factor);
      }
    }
    for (const auto& b : kBitPrefixes) {
      add(std::string(b.text) + "ps", D::bytes_per_second, b.exp10, 1.0 / 8.0);
      add(std::string(b.text) + "/s", D::bytes_per_second, b.exp10, 1.0 / 8.0);
      add(std::string(b.text) + "it/s", D::bytes_per_second, b.exp10, 1.0 / 8.0);
    }
  }
};

const RateTable& rate_table() {
  static const RateTable table;  // immutable after construction
  return table;
}

Classified classify(std::string_view unit) {
  for (const auto& u : kUnits) {
    if (u.text == unit) {
      return {&u, Confusion::none};
    }
  }
  for (const auto& u : rate_table().units) {
    if (u.text == unit) {
      return {&u, Confusion::none};
    }
  }
  for (const auto& b : kBitPrefixes) {
    if (b.text == unit) {
      return {nullptr, Confusion::bits_size};
    }
  }
  return {};
}

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) {
    return {};
  }
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

// Length of the leading decimal number (sign, digits, point, exponent) in s.
std::size_t number_length(std::string_view s) {
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    ++i;
  }
  while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) {
    ++i;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    std::size_t j = i + 1;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) {
      ++j;
    }
    if (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
        ++j;
      }
      i = j;
    }
  }
  return i;
}

// number x 10^exp10, rounded once (the exponent is folded into the decimal text).
std::optional<double> scaled_decimal(std::string_view number, int exp10) {
  std::string text(number.starts_with('+') ? number.substr(1) : number);
  int own_exp = 0;
  const auto e = text.find_first_of("eE");
  if (e != std::string::npos) {
    own_exp = std::atoi(text.c_str() + e + 1);
    text.resize(e);
  }
  text += "e" + std::to_string(own_exp + exp10);
  double v = 0.0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v)) {
    return std::nullopt;
  }
  return v;
}

std::string quoted(std::string_view s) {
  return "'" + std::string(s) + "'";
}

}  // namespace

std::string_view dimension_noun(Dimension d) {
  switch (d) {
    case D::bytes:
      return "size";
    case D::seconds:
      return "duration";
    case D::flops:
      return "FLOP count";
    case D::bytes_per_second:
      return "bandwidth";
    case D::flops_per_second:
      return "compute rate";
  }
  return "quantity";
}

std::string_view base_unit(Dimension d) {
  switch (d) {
    case D::bytes:
      return "B";
    case D::seconds:
      return "s";
    case D::flops:
      return "FLOP";
    case D::bytes_per_second:
      return "B/s";
    case D::flops_per_second:
      return "FLOP/s";
  }
  return "";
}

std::string_view unit_examples(Dimension d) {
  switch (d) {
    case D::bytes:
      return "80GB, 141GiB, 7168B";
    case D::seconds:
      return "1.5us, 3ms, 2s";
    case D::flops:
      return "250GFLOP, 1.2PFLOP";
    case D::bytes_per_second:
      return "50GBps, 400Gbps, 160 GB/s";
    case D::flops_per_second:
      return "989TFLOPS, 1979TFLOP/s";
  }
  return "";
}

double parse_quantity(std::string_view raw, Dimension d) {
  const std::string_view text = trim(raw);
  const std::size_t n = number_length(text);
  const std::string_view number = text.substr(0, n);
  const std::string_view unit = trim(text.substr(n));
  const std::string example(unit_examples(d));

  if (number.empty() || number == "+" || number == "-") {
    throw UnitError(quoted(text) + " is not a " + std::string(dimension_noun(d)),
                    "write a number and a unit, e.g. " + example);
  }
  if (unit.empty()) {
    throw UnitError(
        quoted(text) + " has no unit; a " + std::string(dimension_noun(d)) + " needs one",
        "write e.g. " + example);
  }
  const Classified c = classify(unit);
  if (c.confusion == Confusion::bits_size) {
    if (d == D::bytes) {
      throw UnitError(quoted(text) + " is in bits; sizes are in bytes",
                      "write the size in bytes with 'B' (8 bits = 1B), e.g. " + example);
    }
    if (d == D::bytes_per_second) {
      throw UnitError(quoted(text) + " is a size in bits, not a rate",
                      "append 'ps' or '/s': " + std::string(number) + std::string(unit) + "ps");
    }
  }
  if (c.unit == nullptr) {
    throw UnitError("unknown unit " + quoted(unit) + " in " + quoted(text),
                    "a " + std::string(dimension_noun(d)) + " is written like " + example);
  }
  if (c.unit->dimension != d) {
    std::string hint = "write e.g. " + example;
    if (d == D::bytes_per_second && c.unit->dimension == D::bytes) {
      hint = "append 'ps' or '/s': " + std::string(number) + std::string(unit) + "ps";
    } else if (d == D::flops_per_second && c.unit->dimension == D::flops) {
      hint = "append 'S' or '/s': " + std::string(number) + std::string(unit) + "S";
    }
    throw UnitError(quoted(text) + " is a " + std::string(dimension_noun(c.unit->dimension)) +
                        ", not a " + std::string(dimension_noun(d)),
                    hint);
  }
  const auto v = scaled_decimal(number, c.unit->exp10);
  if (!v) {
    throw UnitError(quoted(text) + " is not a finite number", "write e.g. " + example);
  }
  return *v * c.unit->factor;
}

std::string format_number(double v) {
  std::array<char, 64> buf{};
  const auto [ptr, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  return ec == std::errc() ? std::string(buf.data(), ptr) : std::string("nan");
}

namespace {

// Decimal digits of |v| and the power of ten of the first digit: 1.5e-6 -> ("15", -6).
std::pair<std::string, int> decimal_digits(double v) {
  std::array<char, 64> buf{};
  const auto [ptr, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), std::fabs(v),
                                       std::chars_format::scientific);
  const std::string s(buf.data(), ec == std::errc() ? ptr : buf.data());
  const auto e = s.find('e');
  std::string digits;
  for (std::size_t i = 0; i < e; ++i) {
    if (s[i] != '.') {
      digits += s[i];
    }
  }
  while (digits.size() > 1 && digits.back() == '0') {
    digits.pop_back();
  }
  return {digits, std::atoi(s.c_str() + e + 1)};
}

// digits with the decimal point after `int_digits` digits (may be <= 0 or > size).
std::string place_point(const std::string& digits, int int_digits) {
  if (int_digits <= 0) {
    return "0." + std::string(static_cast<std::size_t>(-int_digits), '0') + digits;
  }
  const auto k = static_cast<std::size_t>(int_digits);
  if (k >= digits.size()) {
    return digits + std::string(k - digits.size(), '0');
  }
  return digits.substr(0, k) + "." + digits.substr(k);
}

struct Prefix {
  int exp10;
  std::string_view unit;
};

std::vector<Prefix> prefixes(Dimension d) {
  switch (d) {
    case D::bytes:
      return {{0, "B"}, {3, "KB"}, {6, "MB"}, {9, "GB"}, {12, "TB"}, {15, "PB"}};
    case D::seconds:
      return {{-12, "ps"}, {-9, "ns"}, {-6, "us"}, {-3, "ms"}, {0, "s"}};
    case D::flops:
      return {{0, "FLOP"},   {3, "KFLOP"},  {6, "MFLOP"}, {9, "GFLOP"},
              {12, "TFLOP"}, {15, "PFLOP"}, {18, "EFLOP"}};
    case D::bytes_per_second:
      return {{0, "Bps"}, {3, "KBps"}, {6, "MBps"}, {9, "GBps"}, {12, "TBps"}, {15, "PBps"}};
    case D::flops_per_second:
      // GPU peaks are quoted in TFLOPS; stop there so 1979TFLOPS stays 1979TFLOPS.
      return {{0, "FLOPS"}, {3, "KFLOPS"}, {6, "MFLOPS"}, {9, "GFLOPS"}, {12, "TFLOPS"}};
  }
  return {};
}

}  // namespace

std::string format_quantity(double base_value, Dimension d) {
  const auto table = prefixes(d);
  if (base_value == 0.0 || !std::isfinite(base_value)) {
    return format_number(base_value) + std::string(d == D::seconds ? "s" : table.front().unit);
  }
  const auto [digits, exp10] = decimal_digits(base_value);
  const Prefix* chosen = &table.front();
  for (const auto& p : table) {
    if (p.exp10 <= exp10) {
      chosen = &p;
    }
  }
  if (d == D::seconds && exp10 >= 0) {
    chosen = &table.back();  // seconds: never "1000s" -> "1ks"
  }
  const std::string sign = base_value < 0 ? "-" : "";
  return sign + place_point(digits, exp10 - chosen->exp10 + 1) + std::string(chosen->unit);
}

}  // namespace codesim::core
