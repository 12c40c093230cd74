// `codesim campaign SCENARIO`: a training run from the scenario's step and its campaign: section,
// reported in the format asked for.
#include <ostream>

#include "sim/cli/commands.hpp"
#include "sim/cli/write_report.hpp"
#include "sim/config/dump.hpp"
#include "sim/config/loader.hpp"
#include "sim/report/campaign_report.hpp"
#include "sim/study/campaign.hpp"

namespace codesim::cli {

void run_campaign(const CampaignOptions& o, std::ostream& out) {
  const auto settings = config::parse_settings(o.settings);
  const metrics::CampaignResult r = study::run_campaign(o.scenario, settings, o.fidelity);
  write_report(
      report::campaign_json(r),
      {[&] { return report::campaign_csv(r); }, [&] { return report::campaign_markdown(r); },
       [&] {
         const config::Scenario s = config::load_scenario(o.scenario, settings);
         return report::campaign_html(r, {config::to_yaml(s), "codesim " CODESIM_VERSION});
       },
       [&] { return report::campaign_table(r); }},
      o.format, o.report, out);
}

}  // namespace codesim::cli
