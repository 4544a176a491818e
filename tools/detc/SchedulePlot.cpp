//===- SchedulePlot.cpp - `detc schedule --plot=FILE.svg` -----------------===//

#include "SchedulePlot.h"

#include "detc/analysis/Schedule.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace llvm;
using namespace detc;

namespace {
constexpr double kWidth = 900, kLeft = 70, kRight = 30;
constexpr double kPlotWidth = kWidth - kLeft - kRight;

std::string escape(StringRef s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else
      out += c;
  }
  return out;
}

std::string number(double x) { return formatv("{0}", x).str(); }

/// %g, which formatv lacks.
std::string general(double x) {
  char buffer[32];
  snprintf(buffer, sizeof buffer, "%.3g", x);
  return buffer;
}
} // namespace

std::string tool::renderSchedulePlot(const PlotInput &in) {
  double total = std::accumulate(in.tasks.begin(), in.tasks.end(), 0.0);
  if (!(total > 0))
    total = 1;
  auto x = [&](double t) { return kLeft + kPlotWidth * t / total; };
  std::string svg;
  svg += formatv("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" "
                 "height=\"470\" font-family=\"sans-serif\" "
                 "font-size=\"12\">\n",
                 kWidth);
  svg += formatv("<text x=\"{0}\" y=\"20\" font-size=\"15\">{1}</text>\n",
                 kLeft, escape(in.title));

  // Timeline: blocks shaded by expected recovery, tasks, checkpoints.
  std::vector<double> bounds{0};
  for (double c : in.checkpoints)
    bounds.push_back(c);
  bounds.push_back(total);
  double worst = 0;
  std::vector<double> recovery;
  for (size_t b = 0; b + 1 < bounds.size(); ++b) {
    recovery.push_back(
        analysis::blockCost(bounds[b + 1] - bounds[b], in.failureRate));
    worst = std::max(worst, recovery.back());
  }
  svg += formatv("<text x=\"{0}\" y=\"48\">timeline ({1} s; blocks shaded "
                 "by expected recovery, checkpoints in red)</text>\n",
                 kLeft, general(total));
  for (size_t b = 0; b + 1 < bounds.size(); ++b) {
    double shade = worst > 0 ? recovery[b] / worst : 0;
    int level = int(235 - 120 * shade);
    svg += formatv("<rect x=\"{0}\" y=\"60\" width=\"{1}\" height=\"50\" "
                   "fill=\"rgb({2},{2},255)\" stroke=\"#446\"><title>block "
                   "{3}: {4} s, expected recovery {5} s</title></rect>\n",
                   number(x(bounds[b])),
                   number(std::max(0.5, x(bounds[b + 1]) - x(bounds[b]))),
                   level, b + 1, general(bounds[b + 1] - bounds[b]),
                   general(recovery[b]));
    if (x(bounds[b + 1]) - x(bounds[b]) > 40)
      svg += formatv("<text x=\"{0}\" y=\"128\" text-anchor=\"middle\" "
                     "font-size=\"10\">{1} s</text>\n",
                     number((x(bounds[b]) + x(bounds[b + 1])) / 2),
                     general(recovery[b]));
  }
  if (in.tasks.size() <= 2000) {
    double t = 0;
    for (double task : in.tasks) {
      t += task;
      svg += formatv("<line x1=\"{0}\" y1=\"60\" x2=\"{0}\" y2=\"68\" "
                     "stroke=\"#446\" stroke-width=\"0.5\"/>\n",
                     number(x(t)));
    }
  }
  for (double c : in.checkpoints)
    svg += formatv("<line x1=\"{0}\" y1=\"55\" x2=\"{0}\" y2=\"115\" "
                   "stroke=\"red\" stroke-width=\"2\"/>\n",
                   number(x(c)));

  // The curve: expected recovery against the allowance.
  const int samples = 40;
  double oMax = std::max(0.05, 2 * in.allowance);
  std::vector<std::pair<double, double>> curve;
  double top = 0;
  for (int i = 0; i <= samples; ++i) {
    double o = oMax * i / samples;
    double r = in.recoveryAt(o);
    curve.push_back({o, r});
    if (std::isfinite(r))
      top = std::max(top, r);
  }
  if (!(top > 0))
    top = 1;
  double y0 = 440, height = 250;
  auto cx = [&](double o) { return kLeft + kPlotWidth * o / oMax; };
  auto cy = [&](double r) { return y0 - height * std::min(r, top) / top; };
  svg += formatv("<text x=\"{0}\" y=\"172\">expected recovery time vs "
                 "allowance o (the schedule recomputed at each o)</text>\n",
                 kLeft);
  svg += formatv("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" "
                 "stroke=\"black\"/>\n",
                 kLeft, y0, kLeft + kPlotWidth);
  svg += formatv("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" "
                 "stroke=\"black\"/>\n",
                 kLeft, y0, y0 - height);
  svg += formatv("<text x=\"{0}\" y=\"{1}\" text-anchor=\"end\">{2} s</text>"
                 "\n",
                 kLeft - 4, y0 - height + 4, general(top));
  svg += formatv("<text x=\"{0}\" y=\"{1}\" text-anchor=\"end\">0</text>\n",
                 kLeft - 4, y0 + 4);
  for (double o : {0.0, oMax / 2, oMax})
    svg += formatv("<text x=\"{0}\" y=\"{1}\" text-anchor=\"middle\">o = "
                   "{2}</text>\n",
                   number(cx(o)), y0 + 18, general(o));
  std::string points;
  for (auto [o, r] : curve)
    if (std::isfinite(r))
      points += number(cx(o)) + "," + number(cy(r)) + " ";
  svg += "<polyline fill=\"none\" stroke=\"#236\" stroke-width=\"2\" "
         "points=\"" +
         points + "\"/>\n";
  double chosen = in.recoveryAt(in.allowance);
  if (std::isfinite(chosen))
    svg += formatv("<circle cx=\"{0}\" cy=\"{1}\" r=\"5\" fill=\"red\">"
                   "<title>o = {2}: {3} s</title></circle>\n",
                   number(cx(in.allowance)), number(cy(chosen)),
                   general(in.allowance), general(chosen));
  svg += "</svg>\n";
  return svg;
}
