// Strong unit types for the quantities codesim moves around (bytes, seconds, FLOPs and their
// rates).
#pragma once

#include <compare>
#include <cstdint>

namespace codesim::core {

// A quantity stored as a double in its SI base unit (byte, second, FLOP, byte/s, FLOP/s).
// Tag types keep a size from being passed where a rate is wanted.
template <class Tag>
struct Quantity {
  double value = 0.0;

  constexpr Quantity() = default;
  constexpr explicit Quantity(double v) : value(v) {}

  constexpr auto operator<=>(const Quantity&) const = default;
  constexpr Quantity operator+(Quantity o) const { return Quantity(value + o.value); }
  constexpr Quantity operator-(Quantity o) const { return Quantity(value - o.value); }
  constexpr Quantity& operator+=(Quantity o) {
    value += o.value;
    return *this;
  }
  constexpr Quantity& operator-=(Quantity o) {
    value -= o.value;
    return *this;
  }
  constexpr Quantity operator*(double k) const { return Quantity(value * k); }
  constexpr Quantity operator/(double k) const { return Quantity(value / k); }
  // Ratio of two quantities of the same kind is a plain number.
  constexpr double operator/(Quantity o) const { return value / o.value; }
};

template <class Tag>
constexpr Quantity<Tag> operator*(double k, Quantity<Tag> q) {
  return q * k;
}

struct BytesTag {};
struct SecondsTag {};
struct FlopsTag {};
struct BytesPerSecondTag {};
struct FlopsPerSecondTag {};

using Bytes = Quantity<BytesTag>;                    // bytes (1 KB = 1000 B)
using Seconds = Quantity<SecondsTag>;                // seconds
using Flops = Quantity<FlopsTag>;                    // floating-point operations (a count)
using BytesPerSecond = Quantity<BytesPerSecondTag>;  // bytes per second (1 GB/s = 1e9 B/s)
using FlopsPerSecond = Quantity<FlopsPerSecondTag>;  // FLOP per second

constexpr Seconds operator/(Bytes b, BytesPerSecond r) {
  return Seconds(b.value / r.value);
}
constexpr Seconds operator/(Flops f, FlopsPerSecond r) {
  return Seconds(f.value / r.value);
}
constexpr BytesPerSecond operator/(Bytes b, Seconds t) {
  return BytesPerSecond(b.value / t.value);
}
constexpr FlopsPerSecond operator/(Flops f, Seconds t) {
  return FlopsPerSecond(f.value / t.value);
}
constexpr Bytes operator*(BytesPerSecond r, Seconds t) {
  return Bytes(r.value * t.value);
}
constexpr Flops operator*(FlopsPerSecond r, Seconds t) {
  return Flops(r.value * t.value);
}

// A time or a rate from a plain number in the unit fits and tables write (the fitted constants
// are doubles): microseconds, gigabytes per second. The literals below are these.
constexpr Seconds microseconds(double us) {
  return Seconds(us * 1e-6);
}
constexpr BytesPerSecond gigabytes_per_second(double gbps) {
  return BytesPerSecond(gbps * 1e9);
}

namespace literals {
constexpr Bytes operator""_B(long double v) {
  return Bytes(static_cast<double>(v));
}
constexpr Bytes operator""_B(unsigned long long v) {
  return Bytes(static_cast<double>(v));
}
constexpr Bytes operator""_GB(unsigned long long v) {
  return Bytes(static_cast<double>(v) * 1e9);
}
constexpr Bytes operator""_GiB(unsigned long long v) {
  return Bytes(static_cast<double>(v) * 1073741824.0);
}
constexpr Seconds operator""_s(long double v) {
  return Seconds(static_cast<double>(v));
}
constexpr Seconds operator""_us(long double v) {
  return microseconds(static_cast<double>(v));
}
constexpr Seconds operator""_us(unsigned long long v) {
  return microseconds(static_cast<double>(v));
}
constexpr BytesPerSecond operator""_GBps(long double v) {
  return gigabytes_per_second(static_cast<double>(v));
}
constexpr BytesPerSecond operator""_GBps(unsigned long long v) {
  return gigabytes_per_second(static_cast<double>(v));
}
constexpr BytesPerSecond operator""_Gbps(unsigned long long v) {
  return BytesPerSecond(static_cast<double>(v) * 1e9 / 8.0);
}
constexpr BytesPerSecond operator""_TBps(long double v) {
  return BytesPerSecond(static_cast<double>(v) * 1e12);
}
constexpr FlopsPerSecond operator""_TFLOPS(unsigned long long v) {
  return FlopsPerSecond(static_cast<double>(v) * 1e12);
}
}  // namespace literals

}  // namespace codesim::core
