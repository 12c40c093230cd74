// Pages as users see them: a headless Chromium screenshot of an HTML file and its pixels per
// colour (libpng's simplified API). Needs chromium (tools/setup.sh --test) and libpng.
#pragma once

#include <gtest/gtest.h>
#include <png.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace codesim::testing {

// Renders `html` at `width` x `height` into `png`; false if Chromium failed.
inline bool screenshot(const std::string& html, const std::string& png, int width = 1100,
                       int height = 2000) {
  const std::string command =
      "chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --disable-quic "
      "--no-first-run --disable-background-networking --disable-component-update --disable-sync "
      "--window-size=" +
      std::to_string(width) + "," + std::to_string(height) + " --screenshot='" + png +
      "' 'file://" + html + "' >/dev/null 2>&1";
  return std::system(command.c_str()) == 0;
}

// Pixels per 0xRRGGBB colour of a PNG file.
inline std::map<std::uint32_t, long> colour_histogram(const std::string& path) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  EXPECT_NE(png_image_begin_read_from_file(&image, path.c_str()), 0) << path;
  image.format = PNG_FORMAT_RGB;
  std::vector<png_byte> pixels(PNG_IMAGE_SIZE(image));
  EXPECT_NE(png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr), 0) << path;
  std::map<std::uint32_t, long> histogram;
  for (std::size_t i = 0; i + 2 < pixels.size(); i += 3) {
    ++histogram[(std::uint32_t{pixels[i]} << 16) | (std::uint32_t{pixels[i + 1]} << 8) |
                pixels[i + 2]];
  }
  return histogram;
}

inline long pixels_of(const std::map<std::uint32_t, long>& histogram, std::uint32_t colour) {
  const auto it = histogram.find(colour);
  return it == histogram.end() ? 0 : it->second;
}

// Share of the page that is not white.
inline double inked_share(const std::map<std::uint32_t, long>& histogram) {
  long total = 0;
  for (const auto& [colour, n] : histogram) {
    total += n;
  }
  return total > 0 ? 1.0 - static_cast<double>(pixels_of(histogram, 0xffffff)) /
                               static_cast<double>(total)
                   : 0.0;
}

}  // namespace codesim::testing
